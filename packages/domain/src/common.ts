import { z } from 'zod';

/** Every failure the API returns (ARCHITECTURE.md: one error shape). */
export const apiErrorSchema = z.object({
  detail: z.string(),
  code: z.string(),
  field: z.string().optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const okSchema = z.object({ detail: z.string() });

/** No NUL character: PostgreSQL text cannot hold it (it would fail in SQL instead of being a 400). */
export const hasNoNul = (s: string) => !s.includes(String.fromCharCode(0));
/** Strings are always bounded (STYLE.md) and hold no NUL character. */
export const shortText = (max = 200) => z.string().trim().max(max).refine(hasNoNul, 'carácter no permitido');
export const emailSchema = z.string().trim().toLowerCase().max(254).email();
export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
