import { isCalendarDate } from '@vigia/domain';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '../../lib/notifier.js';
import type { SortState } from './DataTable.js';

// Table state that must survive Back and a reload (a sort, a page, a period) lives in the page's URL,
// next to the filters, and replaces the current history entry instead of adding one per click.

/** Reads a sort from `sort`/`order` (any other value: the default). Pure, for tests. */
export function readUrlSort<K extends string>(
  params: URLSearchParams,
  columns: readonly K[],
  fallback: SortState<K>,
  keys = { by: 'sort', dir: 'order' },
): SortState<K> {
  const by = params.get(keys.by);
  const dir = params.get(keys.dir);
  return {
    by: by !== null && (columns as readonly string[]).includes(by) ? (by as K) : fallback.by,
    dir: dir === 'asc' || dir === 'desc' ? dir : fallback.dir,
  };
}

/** `params` with the sort written (the default leaves the keys out). */
export function writeUrlSort<K extends string>(
  params: URLSearchParams,
  sort: SortState<K>,
  fallback: SortState<K>,
  keys = { by: 'sort', dir: 'order' },
): URLSearchParams {
  const next = new URLSearchParams(params);
  const isDefault = sort.by === fallback.by && sort.dir === fallback.dir;
  if (isDefault) {
    next.delete(keys.by);
    next.delete(keys.dir);
  } else {
    next.set(keys.by, sort.by);
    next.set(keys.dir, sort.dir);
  }
  return next;
}

/** One URL parameter a screen reads and the test its value must pass (absent values are not judged). */
export interface UrlParamCheck {
  key: string;
  ok: (raw: string) => boolean;
}

/** The notice for URL values a screen does not offer. Pure, for tests. */
export function unknownParamsNotice(bad: readonly { key: string; raw: string }[]): string {
  if (bad.length === 1)
    return `Se ignoró «${bad[0].raw}» en la dirección (${bad[0].key}): no es una opción de esta pantalla.`;
  const parts = bad.map((b) => `«${b.raw}» (${b.key})`).join(', ');
  return `Se ignoraron en la dirección ${parts}: no son opciones de esta pantalla.`;
}

/**
 * The one way a screen treats a URL value it does not offer (?days=45, ?sort=precio, ?ns=otra): it is
 * dropped from the URL (replacing the history entry) with a notice, like the filters' bad values — never
 * kept in the address while the screen shows another (issue 31 item 8).
 */
export function useDropUnknownParams(checks: readonly UrlParamCheck[]): void {
  const [params, setParams] = useSearchParams();
  const bad = checks.flatMap(({ key, ok }) => {
    const raw = params.get(key);
    return raw !== null && !ok(raw) ? [{ key, raw }] : [];
  });
  const badKey = bad.map((b) => `${b.key}=${b.raw}`).join('&');
  // biome-ignore lint/correctness/useExhaustiveDependencies: badKey stands for the values found
  useEffect(() => {
    if (!bad.length) return;
    notify(unknownParamsNotice(bad), 'warning');
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        for (const b of bad) out.delete(b.key);
        return out;
      },
      { replace: true },
    );
  }, [badKey, setParams]);
}

/** A check that the value is one of `allowed`. */
export const oneOf = (key: string, allowed: readonly (string | number)[]): UrlParamCheck => ({
  key,
  ok: (raw) => allowed.some((v) => String(v) === raw),
});

/** A check that the value is a whole number in [min, max] written plainly ("3", not "03", "3.0" or "-3"). */
export const intIn = (key: string, min: number, max: number): UrlParamCheck => ({
  key,
  ok: (raw) => /^(0|[1-9]\d{0,14})$/.test(raw) && Number(raw) >= min && Number(raw) <= max,
});

/** A check that the value is a calendar day yyyy-mm-dd (2026-02-30 is not). */
export const calendarDay = (key: string): UrlParamCheck => ({ key, ok: isCalendarDate });

/** A check that the value is a number in [min, max], with a decimal comma or point ("97,5"). */
export const numberIn = (key: string, min: number, max: number): UrlParamCheck => ({
  key,
  ok: (raw) => {
    if (!/^-?\d+([.,]\d+)?$/.test(raw.trim())) return false;
    const n = Number(raw.trim().replace(',', '.'));
    return n >= min && n <= max;
  },
});

/**
 * A check judged once the screen knows its options (the rows of an answer): `known` is null while they
 * are loading, and then nothing is dropped.
 */
export const knownWhenLoaded = (key: string, known: readonly string[] | null): UrlParamCheck => ({
  key,
  ok: (raw) => known === null || known.includes(raw),
});

/** A table's sort kept in the URL. */
export function useUrlSort<K extends string>(
  columns: readonly K[],
  fallback: SortState<K>,
): [SortState<K>, (next: SortState<K>) => void] {
  const [params, setParams] = useSearchParams();
  useDropUnknownParams([oneOf('sort', columns), oneOf('order', ['asc', 'desc'])]);
  const sortKey = `${params.get('sort')}|${params.get('order')}|${fallback.by}|${fallback.dir}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: sortKey stands for the values read
  const sort = useMemo(() => readUrlSort(params, columns, fallback), [sortKey]);
  const setSort = useCallback(
    (next: SortState<K>) => setParams((prev) => writeUrlSort(prev, next, fallback), { replace: true }),
    [setParams, fallback],
  );
  return [sort, setSort];
}

/** One choice among `allowed` kept in the URL under `key` (the default leaves the key out). */
export function useUrlChoice<V extends string | number>(
  key: string,
  allowed: readonly V[],
  fallback: V,
): [V, (next: V) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(key);
  const found = allowed.find((v) => String(v) === raw);
  const value = found ?? fallback;
  useDropUnknownParams([oneOf(key, allowed)]);
  const setValue = useCallback(
    (next: V) =>
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          if (next === fallback) out.delete(key);
          else out.set(key, String(next));
          return out;
        },
        { replace: true },
      ),
    [setParams, key, fallback],
  );
  return [value, setValue];
}
