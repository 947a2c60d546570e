// GTIN normalisation (GS1 General Specifications §3.2, §7.9): GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13)
// and GTIN-14 are one code space once left-padded with zeros to 14 digits. A code is trusted only when
// its check digit is right; anything else (wrong length, letters, a wrong check digit, all zeros) is
// ignored by matching, never trusted.

/** GS1 check digit of the digits before it (weights 3,1,3,… from the right). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (body.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10;
}

/**
 * The GTIN-14 form of a code (14 digits, left-padded with zeros), or null when the code is not a valid
 * GTIN-8/12/13/14: spaces and hyphens are dropped; leading zeros beyond 14 digits are dropped; other
 * characters, another length, an all-zero code or a wrong check digit give null.
 */
export function normalizeGtin(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let s = raw.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(s)) return null;
  while (s.length > 14 && s[0] === '0') s = s.slice(1);
  // 8–14 digits: GTIN-8/12/13/14, or one whose leading zeros a store dropped (a UPC kept as a number)
  if (s.length < 8 || s.length > 14) return null;
  s = s.padStart(14, '0');
  if (/^0+$/.test(s.slice(0, 13))) return null;
  return gs1CheckDigit(s.slice(0, 13)) === s.charCodeAt(13) - 48 ? s : null;
}

/** A manufacturer part number as compared: folded, letters and digits only ("SM-A546E/DS" → "sma546eds"); null below 3 characters. */
export function normalizeMpn(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return s.length >= 3 ? s : null;
}
