import { z } from 'zod';
import { emailSchema, idSchema, shortText } from './common.js';
import { MIN_PASSWORD_LENGTH, MODULE_CODES } from './constants.js';
import { MESSAGES } from './messages.js';
import type { ImportProgress } from './operations.js';

// Contract of the account and license endpoints (seed 000 §3, §7). Server routes, the web client and
// the tests import these schemas; nothing re-declares them.

export const passwordSchema = z.string().min(MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort).max(200);

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
  /**
   * The organisation's market zone (IANA; an administrator's setting on Operaciones): what "today" is for
   * the periods the screens ask for (docs/metrics.md "Zones and currencies"). Read-only here.
   */
  market_zone: z.string(),
  /** Administers the organisation (Operaciones: sellers, feed sources, API keys). */
  is_admin: z.boolean(),
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

/**
 * PATCH /v1/users/me/: any subset of the profile fields, or only `password` (seed 000 §7).
 * One object (not a union) so that a bad value is reported with its field name; mixing `password`
 * with profile fields is a 400 on `password`. Unknown fields are refused.
 */
export const userPatchBody = z
  .object({
    pivot_pk: idSchema.nullable().optional(),
    /** trimmed; an empty (or blank) name is refused: the profile always has one */
    name: shortText(150).min(1, 'el nombre no puede quedar vacío').optional(),
    currency: z.string().trim().toUpperCase().length(3).optional(),
    timezone: timezoneSchema.optional(),
    password: passwordSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.password !== undefined && Object.keys(body).length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'la contraseña se cambia sola, sin otros campos',
      });
    }
  });
export type UserPatchBody = z.infer<typeof userPatchBody>;
/** A profile change as the client sends it (every field but the password, which changes alone). */
export type ProfilePatch = Omit<z.input<typeof userPatchBody>, 'password'>;

/**
 * Answer of PATCH /v1/users/me/: the updated profile. After a password change it also carries
 * `token`: the change revokes every older token (the current one included), so the client must store
 * this fresh token to keep its session.
 */
export const userPatchResponse = userProfile.extend({
  token: z
    .string()
    .optional()
    .describe('Solo tras un cambio de contraseña: token nuevo; los anteriores quedan revocados.'),
});
export type UserPatchResponse = z.infer<typeof userPatchResponse>;

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

// The two trees are recursive: registered with an id, the OpenAPI document holds them once as components
// and refers to them (a recursive schema without an id would be a $ref to nothing).
z.globalRegistry.add(classificationNode, { id: 'ClassificationNode' });
z.globalRegistry.add(categoryNode, { id: 'CategoryNode' });

/** Extra (non-seed) endpoint: the home-card visibility configuration, GET /v1/app-config. */
export const appConfig = z.object({
  version: z.string(),
  brandComparatorSellers: z.array(z.number()),
  imageVerificationSellers: z.array(z.number()),
});
export type AppConfig = z.infer<typeof appConfig>;

/**
 * Screens shown only when the selected pivot is in an app-config list (000 §6): the home card and the
 * menu item follow the same list, which the server configures (BRAND_COMPARATOR_SELLERS,
 * IMAGE_VERIFICATION_SELLERS) and sends in GET /v1/app-config.
 */
export const PIVOT_GATED_SCREENS = {
  'brand-price-comparator': 'brandComparatorSellers',
  'image-verification': 'imageVerificationSellers',
} as const satisfies Record<string, keyof Omit<AppConfig, 'version'>>;
export type PivotListKey = (typeof PIVOT_GATED_SCREENS)[keyof typeof PIVOT_GATED_SCREENS];

/** Whether a screen (route name) is shown for the pivot: always, unless it is pivot-gated and the pivot is not listed. */
export function screenShownForPivot(
  screen: string,
  pivotId: number | null,
  config: Pick<AppConfig, PivotListKey>,
): boolean {
  const key = (PIVOT_GATED_SCREENS as Record<string, PivotListKey | undefined>)[screen];
  return !key || (pivotId !== null && config[key].includes(pivotId));
}

// ───────────── exporter channel (socket.io on /socket.io, token in the `token` query parameter) ─────────────
// Server → client events, pushed to the signed-in user's room only (seed 000 §4 "Exporter connection").

export const EXPORT_TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const exporterTaskProgress = z.object({
  id: z.string(),
  status: z.enum(EXPORT_TASK_STATUSES),
  /** 0 … 1 */
  progress: z.number().min(0).max(1),
  file_name: z.string().optional(),
  size_bytes: z.number().optional(),
  error: z.string().optional(),
  /** rows written so far and rows to write (reports) */
  rows_done: z.number().optional(),
  rows_total: z.number().nullable().optional(),
});
export type ExporterTaskProgress = z.infer<typeof exporterTaskProgress>;
export const exporterNotification = z.object({
  id: z.number(),
  namespace: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  created_at: z.string(),
});
export type ExporterNotification = z.infer<typeof exporterNotification>;
/** The typed event map of the exporter channel (server → client). */
export interface ExporterServerEvents {
  'task:progress': (payload: ExporterTaskProgress) => void;
  /** reports: a task was created / finished / failed (the screen re-reads its table) */
  'task:created': (payload: ExporterTaskProgress) => void;
  'task:done': (payload: ExporterTaskProgress) => void;
  'task:failed': (payload: ExporterTaskProgress) => void;
  notification: (payload: ExporterNotification) => void;
  /** Operaciones: live progress of an import run (rows read, written, rejected). */
  'import:progress': (payload: ImportProgress) => void;
}
