import Paper from '@mui/material/Paper';
import TableContainer, { type TableContainerProps } from '@mui/material/TableContainer';
import { useEffect, useRef, useState } from 'react';

// A table wider (or taller) than its place scrolls inside its container. On a phone most tables do: a
// keyboard user must be able to reach that scroll (axe scrollable-region-focusable, issue 31 item 6), so
// while the container overflows it is a named region in the Tab order (arrow keys then scroll it).
// While it fits it is neither: no empty tab stop on a wide screen.

/** True while the element's content is larger than its box (re-measured when either changes size). */
export function useOverflows<E extends HTMLElement>(): [React.RefObject<E | null>, boolean] {
  const ref = useRef<E>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () =>
      setOverflows(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    // the content's size changes without the box's (rows loaded, columns added)
    for (const child of Array.from(el.children)) ro.observe(child);
    const mo = new MutationObserver(() => {
      for (const child of Array.from(el.children)) ro.observe(child);
      measure();
    });
    mo.observe(el, { childList: true });
    return () => {
      ro.disconnect();
      mo.disconnect();
    };
  }, []);
  return [ref, overflows];
}

/**
 * A TableContainer that is a named, focusable region while it scrolls. `label` names it; `outlined`
 * draws it as an outlined Paper.
 */
export function ScrollTable({
  label,
  outlined = false,
  sx,
  ...rest
}: TableContainerProps & { label: string; outlined?: boolean }) {
  const [ref, overflows] = useOverflows<HTMLDivElement>();
  return (
    <TableContainer
      ref={ref}
      {...(outlined ? { component: Paper, variant: 'outlined' } : {})}
      {...rest}
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
      sx={[
        { '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 } },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    />
  );
}
