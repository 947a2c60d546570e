import { z } from 'zod';
import { timezoneSchema } from './account.js';
import { idSchema, shortText } from './common.js';

// Operaciones (issue 27): the organisation's sellers, their feed sources (uploaded file or URL), import
// runs with their rejected rows, data freshness, and API keys for machines. Admin-only where it configures.

/** Vigía's feed fields (Google Merchant Center names): what a feed row or an API row may carry. */
export const FEED_FIELDS = [
  'id',
  'title',
  'description',
  'link',
  'image_link',
  'price',
  'sale_price',
  'sale_price_effective_date',
  'availability',
  'brand',
  'gtin',
  'mpn',
  'product_type',
  'google_product_category',
  'condition',
] as const;
export type FeedField = (typeof FEED_FIELDS)[number];
/** Fields a CSV mapping must name (the rest are optional). */
export const REQUIRED_FEED_FIELDS = ['id', 'price'] as const satisfies readonly FeedField[];

export const FEED_FORMATS = ['merchant-xml', 'merchant-tsv', 'csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];
export const FEED_ENCODINGS = ['auto', 'utf-8', 'latin1'] as const;
export type FeedEncoding = (typeof FEED_ENCODINGS)[number];
/** full: the feed lists the whole catalogue (what it no longer lists is unpublished); delta: only changes. */
export const FEED_MODES = ['full', 'delta'] as const;
export const SOURCE_KINDS = ['feed', 'crawl'] as const;
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

/** An object with every feed field optional, each of type `t`; no other key accepted. */
function feedFields<T extends z.ZodType>(t: T) {
  return z
    .object(
      Object.fromEntries(FEED_FIELDS.map((f) => [f, t.optional()])) as Record<FeedField, z.ZodOptional<T>>,
    )
    .strict();
}

/** Vigía field → the CSV column (header text) that holds it. */
export const feedMapping = feedFields(shortText(200).min(1));
export type FeedMapping = z.infer<typeof feedMapping>;

/** Five-field cron (minute hour day-of-month month day-of-week), evaluated in the organisation's zone. */
export const cronSchema = z
  .string()
  .trim()
  .max(100)
  .regex(/^(\S+\s+){4}\S+$/, 'cron de cinco campos (minuto hora día mes día-semana)');

export const operationsSeller = z.object({
  id: z.number(),
  name: z.string(),
  country: z.string(),
  currency: z.string(),
  url: z.string().nullable(),
  own: z.boolean(),
  /** Registered by this organisation (editable here) or part of the licensed market. */
  registered: z.boolean(),
  last_import_at: z.string().nullable(),
  /** Not updated within its sources' schedule (or never). */
  stale: z.boolean(),
});
export type OperationsSeller = z.infer<typeof operationsSeller>;
export const operationsSellersResponse = z.object({ items: z.array(operationsSeller) });

export const sellerCreateBody = z.object({
  name: shortText(120).min(1),
  country: z
    .string()
    .trim()
    .max(2)
    .regex(/^[A-Z]{2}$/, 'código de país de dos letras'),
  currency: z
    .string()
    .trim()
    .max(3)
    .regex(/^[A-Z]{3}$/, 'código de moneda de tres letras'),
  url: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable()
    .optional(),
  /** The organisation's own store (a pivot) or a competitor. */
  own: z.boolean().default(false),
});
export type SellerCreateBody = z.input<typeof sellerCreateBody>;

export const feedSource = z.object({
  id: z.number(),
  seller_id: z.number(),
  kind: z.enum(SOURCE_KINDS),
  name: z.string(),
  origin: z.enum(['upload', 'url']),
  url: z.string().nullable(),
  /** a crawl source's pages are read as schema.org data ('schema-org') */
  format: z.enum([...FEED_FORMATS, 'schema-org']),
  encoding: z.enum(FEED_ENCODINGS),
  mapping: feedMapping,
  schedule: z.string().nullable(),
  mode: z.enum(FEED_MODES),
  has_file: z.boolean(),
  /** What a crawl source visits (null for a feed): how many URLs were listed, its sitemaps, the pattern. */
  crawl: z
    .object({ urls: z.number(), sitemaps: z.array(z.string()), pattern: z.string().nullable() })
    .nullable(),
  created_at: z.string(),
  last_run: z.lazy(() => importRun).nullable(),
});
export type FeedSource = z.infer<typeof feedSource>;
export const feedSourcesResponse = z.object({ items: z.array(feedSource) });

export const feedSourceBody = z
  .object({
    seller_id: idSchema,
    name: shortText(120).min(1),
    origin: z.enum(['upload', 'url']),
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .nullable()
      .optional(),
    format: z.enum(FEED_FORMATS),
    encoding: z.enum(FEED_ENCODINGS).default('auto'),
    mapping: feedMapping.default({}),
    schedule: cronSchema.nullable().optional(),
    mode: z.enum(FEED_MODES).default('full'),
  })
  .refine((b) => b.origin !== 'url' || !!b.url, { path: ['url'], message: 'falta la URL del feed' });
export type FeedSourceBody = z.input<typeof feedSourceBody>;

/** Most pages one crawl source lists (pasted URLs, one per line). */
export const CRAWL_MAX_URLS = 100_000;
const crawlUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** A crawl source (issue 28): product-page URLs and/or sitemaps (index and .xml.gz), an optional pattern. */
export const crawlSourceBody = z
  .object({
    seller_id: idSchema,
    name: shortText(120).min(1),
    // the count is checked before each item (a body of 100,000 wrong items is refused at once)
    urls: z
      .array(z.unknown())
      .max(CRAWL_MAX_URLS, `como máximo ${CRAWL_MAX_URLS} URL`)
      .pipe(z.array(crawlUrl))
      .default([]),
    sitemaps: z.array(z.unknown()).max(100).pipe(z.array(crawlUrl)).default([]),
    /** URLs of the sitemaps kept: a substring, or a regular expression between slashes */
    pattern: shortText(200).nullable().optional(),
    schedule: cronSchema.nullable().optional(),
  })
  .refine((b) => b.urls.length > 0 || b.sitemaps.length > 0, {
    path: ['urls'],
    message: 'indique al menos una URL de producto o un sitemap',
  });
export type CrawlSourceBody = z.input<typeof crawlSourceBody>;

/** Changes to a source (the mapping confirmed on the preview, the schedule, the mode …). */
export const feedSourcePatchBody = z.object({
  name: shortText(120).min(1).optional(),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  format: z.enum(FEED_FORMATS).optional(),
  encoding: z.enum(FEED_ENCODINGS).optional(),
  mapping: feedMapping.optional(),
  schedule: cronSchema.nullable().optional(),
  mode: z.enum(FEED_MODES).optional(),
});
export type FeedSourcePatchBody = z.input<typeof feedSourcePatchBody>;

export const sourceParams = z.object({ id: idSchema });
export const runParams = z.object({ id: idSchema });

export const importRun = z.object({
  id: z.number(),
  source_id: z.number().nullable(),
  source_kind: z.enum([...SOURCE_KINDS, 'api']),
  seller_id: z.number(),
  status: z.enum(RUN_STATUSES),
  trigger: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  rows_read: z.number(),
  rows_written: z.number(),
  rows_changed: z.number(),
  rows_rejected: z.number(),
  unpublished: z.number(),
  error: z.string().nullable(),
  /** A crawl run's pages by state (null for other runs); fetched: those requested from the site. */
  pages: z
    .object({
      planned: z.number(),
      fetched: z.number(),
      unchanged: z.number(),
      extracted: z.number(),
      rejected: z.number(),
      failed: z.number(),
    })
    .nullable()
    .optional(),
});
export type ImportRun = z.infer<typeof importRun>;
export const importRunsQuery = z.object({ source_id: idSchema.optional() });
export const importRunsResponse = z.object({ items: z.array(importRun) });
export type ImportRunsResponse = z.infer<typeof importRunsResponse>;
export const importStartedResponse = z.object({ run: importRun });

export const CRAWL_PAGE_STATES = ['planned', 'unchanged', 'extracted', 'rejected', 'failed'] as const;
export const crawlPagesQuery = z.object({
  state: z.enum(CRAWL_PAGE_STATES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export const crawlPage = z.object({
  seq: z.number(),
  url: z.string(),
  state: z.enum(CRAWL_PAGE_STATES),
  http_status: z.number().nullable(),
  reason: z.string().nullable(),
  detail: z.string().nullable(),
  product_id: z.string().nullable(),
  fetched_at: z.string().nullable(),
});
export type CrawlPage = z.infer<typeof crawlPage>;
export const crawlPagesResponse = z.object({ items: z.array(crawlPage), total: z.number() });
export type CrawlPagesResponse = z.infer<typeof crawlPagesResponse>;

export const previewBody = z.object({
  format: z.enum(FEED_FORMATS).optional(),
  encoding: z.enum(FEED_ENCODINGS).optional(),
  mapping: feedMapping.optional(),
});
export const previewRow = z.object({
  line: z.number(),
  values: feedFields(z.string()),
  /** The row as Vigía reads it, or why it would be rejected. */
  product_id: z.string().nullable(),
  title: z.string().nullable(),
  price: z.string().nullable(),
  sale_price: z.string().nullable(),
  currency: z.string().nullable(),
  error: z.string().nullable(),
});
export const previewResponse = z.object({
  columns: z.array(z.string()),
  rows: z.array(previewRow),
  /** The mapping the preview used (the given one, or one guessed from the columns). */
  mapping: feedMapping,
});
export type PreviewResponse = z.infer<typeof previewResponse>;

export const apiKey = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  seller_ids: z.array(z.number()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKey>;
export const apiKeysResponse = z.object({ items: z.array(apiKey) });
export const apiKeyBody = z.object({
  name: shortText(120).min(1),
  seller_ids: z.array(idSchema).min(1).max(200),
});
/** The key itself is in this answer only: it is stored hashed. */
export const apiKeyCreatedResponse = z.object({ key: z.string(), item: apiKey });

/** One row pushed by a machine: the feed fields (strings, as a feed would carry them). */
export const ingestRow = feedFields(z.string().max(10_000));
export const ingestQuery = z.object({ seller_id: idSchema });
/** Rows are checked one by one (each gets its own result); only unknown keys refuse the whole batch. */
export const ingestBatchBody = z.object({ rows: z.array(feedFields(z.unknown())).min(1).max(10_000) });
export const ingestRowResult = z.object({
  line: z.number(),
  id: z.string().nullable(),
  status: z.enum(['accepted', 'rejected']),
  reason: z.string().nullable(),
});
export const ingestResponse = z.object({
  run_id: z.number().nullable(),
  accepted: z.number(),
  rejected: z.number(),
  changed: z.number(),
  results: z.array(ingestRowResult),
});
export type IngestResponse = z.infer<typeof ingestResponse>;

/** Exporter-channel event: live progress of an import run (sent to the user who started it). */
export const importProgress = z.object({
  run_id: z.number(),
  source_id: z.number().nullable(),
  status: z.enum(RUN_STATUSES),
  rows_read: z.number(),
  rows_written: z.number(),
  rows_rejected: z.number(),
  error: z.string().nullable(),
});
export type ImportProgress = z.infer<typeof importProgress>;

// ───────────────────────────── organisation settings ─────────────────────────────

/**
 * The organisation's settings an administrator changes (issue 25): its market zone (IANA name), which
 * decides what a day is for its periods, windows and feed schedules (docs/metrics.md "Zones and currencies").
 */
export const organisationSettings = z.object({
  market_zone: z.string(),
});
export type OrganisationSettings = z.infer<typeof organisationSettings>;

export const organisationSettingsBody = z
  .object({
    market_zone: timezoneSchema,
  })
  .strict();
export type OrganisationSettingsBody = z.infer<typeof organisationSettingsBody>;
