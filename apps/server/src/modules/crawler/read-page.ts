import iconv from 'iconv-lite';
import { FetchError, type SafeFetchOptions, safeFetch } from '../../platform/http/index.js';
import type { Observation } from '../ingest/index.js';
import { extractProduct } from './extract.js';
import { backoffWithJitter, retryAfterMs } from './politeness.js';
import type { PriceContext } from './price-text.js';
import { judgeReading, listingIdOf } from './reading.js';

// One page of a crawl: fetched politely (the caller holds the host's slot), decoded, read and judged.
// Retries with exponential back-off and jitter on 5xx, 429 and time-outs, honouring Retry-After.

export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 30_000;
export const PAGE_RETRIES = 2;

export type PageState = 'unchanged' | 'extracted' | 'rejected' | 'failed';

export interface PageOutcome {
  state: PageState;
  httpStatus: number | null;
  reason: string | null; // Spanish, shown on Operaciones
  detail: string | null;
  etag: string | null;
  lastModified: string | null;
  observation: Observation | null;
  /** the listing id read from the page (also for rejected readings, to show which listing was doubted) */
  productId: string | null;
  /** how long the host asked to be left alone (429/503 Retry-After), for the scheduler */
  retryAfterMs: number | null;
  attempts: number;
}

export interface ReadPageOptions {
  seller: PriceContext;
  fetch: Pick<SafeFetchOptions, 'allowPrivate' | 'userAgent'>;
  etag?: string | null;
  lastModified?: string | null;
  /** the listing's last trusted effective price (null when new) */
  lastTrustedPrice: (productId: string) => Promise<number | null>;
  sleep?: (ms: number) => Promise<void>;
  retries?: number;
  signal?: AbortSignal;
}

function charsetOf(contentType: string | null): string {
  const m = /charset=["']?([\w-]+)/i.exec(contentType ?? '');
  const cs = (m?.[1] ?? 'utf-8').toLowerCase();
  return iconv.encodingExists(cs) ? cs : 'utf-8';
}

async function bodyText(body: AsyncIterable<Buffer>, contentType: string | null): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c);
  return iconv.decode(Buffer.concat(chunks), charsetOf(contentType));
}

const RETRYABLE = (e: FetchError) =>
  e.code === 'timeout' ||
  e.code === 'network' ||
  (e.code === 'http_status' && (e.status === 429 || (e.status ?? 0) >= 500));

function failure(e: unknown): { reason: string; detail: string; status: number | null } {
  if (e instanceof FetchError) {
    const reason =
      e.code === 'http_status'
        ? e.status === 404 || e.status === 410
          ? 'página no encontrada (404)'
          : `error HTTP ${e.status}`
        : e.code === 'timeout'
          ? 'tiempo agotado'
          : e.code === 'too_large'
            ? 'página demasiado grande'
            : e.code === 'private_address' || e.code === 'scheme'
              ? 'dirección no permitida'
              : e.code === 'too_many_redirects'
                ? 'demasiadas redirecciones'
                : 'error de red';
    return { reason, detail: e.message.slice(0, 300), status: e.status ?? null };
  }
  return { reason: 'error de red', detail: String((e as Error)?.message ?? e).slice(0, 300), status: null };
}

export async function readPage(url: string, o: ReadPageOptions): Promise<PageOutcome> {
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const retries = o.retries ?? PAGE_RETRIES;
  const base = {
    etag: o.etag ?? null,
    lastModified: o.lastModified ?? null,
    observation: null,
    productId: null,
    retryAfterMs: null,
  };
  for (let attempt = 0; ; attempt++) {
    o.signal?.throwIfAborted();
    try {
      const res = await safeFetch(url, {
        ...o.fetch,
        etag: o.etag,
        lastModified: o.lastModified,
        maxBytes: MAX_PAGE_BYTES,
        timeoutMs: PAGE_TIMEOUT_MS,
        accept: 'text/html,application/xhtml+xml',
      });
      if (res.notModified) {
        return {
          ...base,
          state: 'unchanged',
          httpStatus: 304,
          reason: null,
          detail: null,
          attempts: attempt + 1,
        };
      }
      const html = await bodyText(res.body as AsyncIterable<Buffer>, res.contentType);
      const validators = { etag: res.etag, lastModified: res.lastModified };
      const page = extractProduct(html, res.url);
      if (!page.ok) {
        return {
          ...base,
          ...validators,
          state: 'rejected',
          httpStatus: res.status,
          reason: page.reason,
          detail: page.detail,
          attempts: attempt + 1,
        };
      }
      const productId = listingIdOf(page.product);
      const last = productId ? await o.lastTrustedPrice(productId) : null;
      const judged = judgeReading(page.product, { ...o.seller, lastTrustedPrice: last });
      if (!judged.ok) {
        return {
          ...base,
          ...validators,
          productId,
          state: 'rejected',
          httpStatus: res.status,
          reason: judged.reason,
          detail: judged.detail,
          attempts: attempt + 1,
        };
      }
      return {
        ...base,
        ...validators,
        productId,
        state: 'extracted',
        httpStatus: res.status,
        reason: null,
        detail: page.product.note ?? null,
        observation: judged.observation,
        attempts: attempt + 1,
      };
    } catch (e) {
      if (o.signal?.aborted) throw e;
      const retryAfter = e instanceof FetchError ? retryAfterMs(e.retryAfter ?? null) : null;
      if (e instanceof FetchError && RETRYABLE(e) && attempt < retries) {
        await sleep(Math.max(retryAfter ?? 0, backoffWithJitter(attempt)));
        continue;
      }
      const f = failure(e);
      return {
        ...base,
        state: 'failed',
        httpStatus: f.status,
        reason: f.reason,
        detail: f.detail,
        retryAfterMs: retryAfter,
        attempts: attempt + 1,
      };
    }
  }
}
