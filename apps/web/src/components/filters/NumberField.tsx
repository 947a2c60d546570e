import { TextField, type TextFieldProps } from '@mui/material';
import { formatNumber } from '@vigia/domain';
import { useEffect, useState } from 'react';

// The one number field of the app (issue 31 item 7): typed the Spanish way ("2,5"; a point is read as a
// decimal point too, "1.000" with thousands points as well), an empty field is empty (never "0", then
// "05"), and a value outside its bounds — or not a number — is said on the field and never saved.

export interface NumberBounds {
  min?: number;
  max?: number;
  /** decimals allowed (0: whole numbers); default 2 */
  decimals?: number;
  /** an empty field is an error (else it commits null) */
  required?: boolean;
}

/**
 * Reads a number typed in es-CL: "2,5" → 2.5, "1.000" → 1000, "1.000,5" → 1000.5, "2.5" → 2.5 (a
 * single point followed by other than three digits is a decimal point). '' → null; NaN when unreadable.
 */
export function parseNumberEs(raw: string): number | null {
  const t = raw.trim().replace(/\s|%/g, '');
  if (t === '') return null;
  let s = t;
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, '');
  if (!/^-?\d+(\.\d+)?$/.test(s)) return Number.NaN;
  return Number(s);
}

/** The error of a typed value against its bounds, in Spanish; null when it may be saved. */
export function numberError(raw: string, b: NumberBounds): string | null {
  const v = parseNumberEs(raw);
  const range =
    b.min !== undefined && b.max !== undefined
      ? `entre ${formatNumber(b.min)} y ${formatNumber(b.max)}`
      : b.min !== undefined
        ? `desde ${formatNumber(b.min)}`
        : b.max !== undefined
          ? `hasta ${formatNumber(b.max)}`
          : '';
  if (v === null) return b.required ? 'Campo requerido' : null;
  if (Number.isNaN(v)) return `Escribe un número${range ? ` ${range}` : ''} (decimales con coma)`;
  const decimals = b.decimals ?? 2;
  if (decimals === 0 && !Number.isInteger(v)) return 'Escribe un número entero';
  if (decimals > 0 && Math.round(v * 10 ** decimals) / 10 ** decimals !== v)
    return `Hasta ${decimals} ${decimals === 1 ? 'decimal' : 'decimales'}`;
  if ((b.min !== undefined && v < b.min) || (b.max !== undefined && v > b.max)) return `Debe estar ${range}`;
  return null;
}

/** A value as the field shows it: es-CL decimal comma, no thousands points while typing. */
export const numberText = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v) ? '' : String(v).replace('.', ',');

/**
 * A number typed the Spanish way, committed (blur, Enter) only when valid: `onCommit(null)` for an empty
 * optional field. `error` adds a message from outside (e.g. a minimum above the maximum).
 */
export function NumberField({
  value,
  onCommit,
  bounds = {},
  error: outerError,
  live = false,
  ...rest
}: Omit<TextFieldProps, 'value' | 'onChange' | 'error'> & {
  value: number | null;
  onCommit: (v: number | null) => void;
  bounds?: NumberBounds;
  error?: string | null;
  /** commit on every valid keystroke (forms with their own Save), not only on blur / Enter */
  live?: boolean;
}) {
  const [draft, setDraft] = useState(numberText(value));
  useEffect(() => {
    setDraft((d) => (parseNumberEs(d) === value ? d : numberText(value)));
  }, [value]);
  const own = numberError(draft, bounds);
  const message = own ?? outerError ?? null;
  const commit = (text: string) => {
    if (numberError(text, bounds)) return;
    const v = parseNumberEs(text);
    if (v !== value) onCommit(v);
  };
  return (
    <TextField
      {...rest}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        if (live) commit(e.target.value);
      }}
      onBlur={() => commit(draft)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(draft);
      }}
      error={!!message}
      helperText={message ?? rest.helperText}
      slotProps={{
        ...rest.slotProps,
        htmlInput: { inputMode: 'decimal', ...(rest.slotProps?.htmlInput as object) },
      }}
    />
  );
}
