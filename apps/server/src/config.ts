import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_BRAND_COMPARATOR_SELLERS, DEFAULT_IMAGE_VERIFICATION_SELLERS } from '@vigia/domain';
import { z } from 'zod';
import { DEFAULT_POOL_SIZE } from './db/database.js';

const sellerList = (fallback: number[]) =>
  z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'lista de ids separados por comas, p. ej. "116,125"')
    .transform((s) => s.split(',').map((x) => Number(x.trim())))
    .optional()
    .transform((v) => v ?? fallback);

/** The configuration contract of ARCHITECTURE.md, read once at start. */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'debe ser una URL postgres://…')
    .optional(),
  JWT_SECRET: z.string().min(32, 'debe tener al menos 32 caracteres').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'debe ser una URL smtp:// o smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Vigía <no-reply@vigia.local>'),
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  DEMO_DATA: z.enum(['none', 'small', 'medium', 'large']).default('small'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BRAND_COMPARATOR_SELLERS: sellerList(DEFAULT_BRAND_COMPARATOR_SELLERS),
  IMAGE_VERIFICATION_SELLERS: sellerList(DEFAULT_IMAGE_VERIFICATION_SELLERS),
  /** Access-token lifetime in seconds. */
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(12 * 3600),
  /** Login and password-reset attempts allowed per minute, per e-mail and per IP. */
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /**
   * Cheap signed-in requests allowed per user and minute (exports: a 40th, report requests: a 60th;
   * plugins/user-rate-limit.ts).
   */
  USER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(60).default(1200),
  /**
   * Matching thresholds (issue 29, docs/operations.md "Matching thresholds"): a title score at or above
   * the auto one is matched automatically (source auto, reviewable); at or above the suggest one it is
   * suggested for review; below, nothing.
   */
  MATCH_AUTO_THRESHOLD: z.coerce.number().min(0).max(1).default(0.9),
  MATCH_SUGGEST_THRESHOLD: z.coerce.number().min(0).max(1).default(0.55),
  /** Directory of the built web app; default apps/web/dist next to this package. */
  WEB_DIST: z.string().optional(),
  /** What this process does (docs/operations.md): api (HTTP), worker (jobs, schedules) or all. */
  VIGIA_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  /**
   * Connections of each process's database pool (`db/database.ts` createPool): the API's requests, the
   * job queue, the socket.io adapter's LISTEN, the worker's jobs and the demo seed. A process opens up to
   * this many plus its LISTEN and probe connections (docs/operations.md "Connections per role").
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(4).max(200).default(DEFAULT_POOL_SIZE),
  /**
   * An API process's resident memory above which it runs a full garbage collection (platform/memory.ts;
   * docs/operations.md "Memory"): MiB, 0 for never.
   */
  MEMORY_SOFT_LIMIT_MB: z.coerce.number().int().min(0).max(1_048_576).default(1200),
  /** A running job without a heartbeat for this long (its worker died) is retried by another worker. */
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /**
   * Feed URLs (and later crawled pages) may resolve to private, loopback or link-local addresses. Off in
   * production (a feed URL must not reach the internal network); the tests' local servers need it on.
   */
  FETCH_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Largest feed accepted (bytes, after decompression). */
  FEED_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(300 * 1024 * 1024),
  /** API-key ingest: requests per minute per key. */
  INGEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** The crawler's User-Agent names Vigía and this contact page (sites' operators read it in their logs). */
  CRAWLER_CONTACT_URL: z.string().url().max(300).default('https://vigia.example/bot'),
  /** Milliseconds between two requests to one host (a robots.txt Crawl-delay can only raise it). */
  CRAWLER_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  /** Requests in flight per host. */
  CRAWLER_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
});

export type RawConfig = z.infer<typeof configSchema>;
export type Config = Omit<RawConfig, 'JWT_SECRET'> & { JWT_SECRET: string; DATA_DIR: string };

export class ConfigError extends Error {}

/** Reads and validates the environment; a wrong value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const v = env[key];
    picked[key] = v === '' ? undefined : v;
  }
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuración inválida:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  const dataDir = resolve(cfg.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new ConfigError(
      `Configuración inválida:\n  DATA_DIR: no se puede crear ${dataDir} (${(err as NodeJS.ErrnoException).code})`,
    );
  }
  return { ...cfg, DATA_DIR: dataDir, JWT_SECRET: cfg.JWT_SECRET ?? readOrCreateSecret(dataDir) };
}

/** The signing key is generated once per data directory, never a constant in the code. */
function readOrCreateSecret(dataDir: string): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, 'jwt_secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
