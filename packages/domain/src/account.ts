import { z } from 'zod';
import { emailSchema, idSchema, shortText } from './common.js';
import { MIN_PASSWORD_LENGTH, MODULE_CODES } from './constants.js';

// Contract of the account and license endpoints (seed 000 §3, §7). Server routes, the web client and
// the tests import these schemas; nothing re-declares them.

export const passwordSchema = z.string().min(MIN_PASSWORD_LENGTH).max(200);

export const loginBody = z.object({ email: emailSchema, password: z.string().min(1).max(200) });
export const sessionUser = z.object({
  name: z.string(),
  email: z.string(),
  timezone: z.string(),
  pivot: z.object({ id: z.number(), name: z.string() }).nullable(),
  currency: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUser>;
export const loginResponse = z.object({ token: z.string(), user: sessionUser });

export const refreshBody = z.object({ token: z.string().min(10).max(4000) });
export const refreshResponse = z.object({ token: z.string() });

export const passwordResetBody = z.object({ email: emailSchema });
export const passwordResetConfirmBody = z.object({
  password: passwordSchema,
  uid: z.string().min(1).max(100),
  token: z.string().min(1).max(200),
});

export const userProfile = z.object({
  pivot: z.object({ pk: z.number(), name: z.string() }).nullable(),
  pivot_pk: z.number().nullable(),
  name: z.string(),
  email: z.string(),
  currency: z.string().nullable(),
  timezone: z.string(),
});
export type UserProfile = z.infer<typeof userProfile>;

export const timezoneSchema = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'zona horaria desconocida');

/** PATCH /v1/users/me/: the profile fields, or only the password. */
export const userPatchBody = z.union([
  z.object({ password: passwordSchema }).strict(),
  z
    .object({
      pivot_pk: idSchema.nullable().optional(),
      name: shortText(150).optional(),
      currency: z.string().trim().toUpperCase().length(3).optional(),
      timezone: timezoneSchema.optional(),
    })
    .strict(),
]);

export const moduleCodeSchema = z.enum(MODULE_CODES);

export const licenseCurrency = z.object({ acronym: z.string(), name: z.string() });
export const licensePivot = z.object({
  id: z.number(),
  name: z.string(),
  country: z.string(),
  color: z.string(),
});
export const licenseRoleModule = z.object({ module_code: moduleCodeSchema });
export const licenseSeller = z.object({
  id: z.number(),
  name: z.string(),
  country: z.string(),
  color: z.string(),
  currency: z.string(),
});
export const sellersByCountry = z.object({
  country: z.string(),
  country_name: z.string(),
  country_flag: z.string(),
  sellers: z.array(licenseSeller),
});
export const licenseBrand = z.object({ id: z.number(), name: z.string(), own: z.boolean() });
export const licenseBrandsBody = z.object({ sellers: z.array(idSchema).max(500).default([]) });

export type ClassificationNode = {
  id: number;
  name: string;
  level: number;
  parent_id: number | null;
  children: ClassificationNode[];
};
export const classificationNode: z.ZodType<ClassificationNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    level: z.number(),
    parent_id: z.number().nullable(),
    children: z.array(classificationNode),
  }),
);
export type CategoryNode = {
  id: number;
  name: string;
  seller_id: number;
  level: number;
  parent_id: number | null;
  children: CategoryNode[];
};
export const categoryNode: z.ZodType<CategoryNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    seller_id: z.number(),
    level: z.number(),
    parent_id: z.number().nullable(),
    children: z.array(categoryNode),
  }),
);

/** Extra (non-seed) endpoint: the home-card visibility configuration, GET /v1/app-config. */
export const appConfig = z.object({
  version: z.string(),
  brandComparatorSellers: z.array(z.number()),
  imageVerificationSellers: z.array(z.number()),
});
export type AppConfig = z.infer<typeof appConfig>;
