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

/** Strings are always bounded (STYLE.md). */
export const shortText = (max = 200) => z.string().trim().max(max);
export const emailSchema = z.string().trim().toLowerCase().max(254).email();
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'fecha inválida (yyyy-MM-dd)')
  .max(40);
export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
