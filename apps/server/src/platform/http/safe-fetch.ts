import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type Undici from 'undici';

// The one way the server fetches a URL an outside party gave it (feed sources now, crawled pages next):
// http(s) only; no private, loopback, link-local or otherwise internal address — checked on the address
// DNS resolved to, at connect time, for the first request and for every redirect — unless `allowPrivate`
// (tests' local servers); redirects bounded; a deadline for the whole transfer; a size limit on the
// decompressed bytes (gzip and br bombs included); conditional requests with ETag / If-Modified-Since.

export type FetchErrorCode =
  | 'scheme'
  | 'private_address'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'network';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly status?: number,
    /** the server's Retry-After header on a 429 or 503, as it wrote it */
    readonly retryAfter?: string | null,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  allowPrivate?: boolean;
  /** Largest body accepted, after decompression (bytes). */
  maxBytes?: number;
  /** Deadline for the whole transfer, body included (ms). */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Validators of the copy already held: a 304 answers `notModified`. */
  etag?: string | null;
  lastModified?: string | null;
  userAgent?: string;
  accept?: string;
}

export interface SafeFetchResult {
  status: number;
  notModified: boolean;
  /** The final URL (after redirects). */
  url: string;
  etag: string | null;
  lastModified: string | null;
  contentType: string | null;
  /** The decompressed body, limited to maxBytes (empty when notModified). Must be consumed or destroyed. */
  body: Readable;
}

export const SAFE_FETCH_DEFAULTS = {
  maxBytes: 300 * 1024 * 1024,
  timeoutMs: 120_000,
  maxRedirects: 5,
  userAgent: 'Vigia/1.0 (+https://vigia.example/bot)',
} as const;

/** Addresses a fetched URL may not reach (RFC 6890 special-purpose ranges that are not the internet). */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is private, loopback, link-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses a name resolving to a blocked address (every address is checked). */
function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const e = new FetchError('private_address', `la dirección ${bad.address} de ${hostname} no es pública`);
      return callback(e as unknown as NodeJS.ErrnoException, []);
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}

/**
 * undici and its two connection pools, loaded on the first fetch rather than at the server's start
 * (module loading that no first request needs: docs/architecture.md, cold start), as ExcelJS.
 */
let client: { request: typeof Undici.request; publicAgent: Undici.Agent; openAgent: Undici.Agent } | null =
  null;
function undiciClient() {
  if (!client) {
    const { Agent, request } = createRequire(import.meta.url)('undici') as typeof Undici;
    client = {
      request,
      publicAgent: new Agent({ connect: { lookup: guardedLookup as never }, connections: 16 }),
      openAgent: new Agent({ connections: 16 }),
    };
  }
  return client;
}

function checkUrl(raw: string, allowPrivate: boolean): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new FetchError('scheme', 'URL no válida');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new FetchError('scheme', 'solo se aceptan URLs http o https');
  if (u.username || u.password) throw new FetchError('scheme', 'la URL no puede llevar usuario ni clave');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  // An address written in the URL is checked here (no DNS lookup happens for it).
  if (!allowPrivate && isIP(host) && isPrivateAddress(host))
    throw new FetchError('private_address', `la dirección ${host} no es pública`);
  if (!allowPrivate && /^localhost$|\.localhost$/i.test(host))
    throw new FetchError('private_address', `${host} no es una dirección pública`);
  return u;
}

/** Counts bytes through; past the limit the stream fails with a FetchError('too_large'). */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max)
        cb(new FetchError('too_large', `el archivo supera el límite de ${Math.round(max / 1048576)} MB`));
      else cb(null, chunk);
    },
  });
}

/** GET with the rules above. Throws FetchError for every refusal and for HTTP statuses other than 2xx/304. */
export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const allowPrivate = opts.allowPrivate ?? false;
  const maxBytes = opts.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = opts.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const timeoutMs = opts.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = {
    'user-agent': opts.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent,
    'accept-encoding': 'gzip, br',
    accept: opts.accept ?? '*/*',
  };
  if (opts.etag) headers['if-none-match'] = opts.etag;
  if (opts.lastModified) headers['if-modified-since'] = opts.lastModified;
  let current = checkUrl(url, allowPrivate);
  const { request, publicAgent, openAgent } = undiciClient();
  for (let hop = 0; ; hop++) {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(current, {
        method: 'GET',
        headers,
        signal,
        dispatcher: allowPrivate ? openAgent : publicAgent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      throw toFetchError(err, signal);
    }
    const h = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
    };
    if (res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304) {
      discard(res.body);
      const location = h('location');
      if (!location)
        throw new FetchError('http_status', `redirección ${res.statusCode} sin destino`, res.statusCode);
      if (hop >= maxRedirects)
        throw new FetchError('too_many_redirects', `más de ${maxRedirects} redirecciones`);
      current = checkUrl(new URL(location, current).toString(), allowPrivate);
      continue;
    }
    const base = {
      status: res.statusCode,
      url: current.toString(),
      etag: h('etag'),
      lastModified: h('last-modified'),
      contentType: h('content-type'),
    };
    if (res.statusCode === 304) {
      discard(res.body);
      const empty = new PassThrough();
      empty.end();
      return { ...base, notModified: true, body: empty };
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      discard(res.body);
      throw new FetchError(
        'http_status',
        `el servidor respondió ${res.statusCode}`,
        res.statusCode,
        h('retry-after'),
      );
    }
    const declared = Number(h('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      discard(res.body);
      throw new FetchError(
        'too_large',
        `el archivo supera el límite de ${Math.round(maxBytes / 1048576)} MB`,
      );
    }
    const encoding = (h('content-encoding') ?? '').trim().toLowerCase();
    const stages: NodeJS.ReadWriteStream[] = [byteLimit(maxBytes)];
    if (encoding === 'gzip' || encoding === 'x-gzip') stages.unshift(zlib.createGunzip());
    else if (encoding === 'br') stages.unshift(zlib.createBrotliDecompress());
    else if (encoding && encoding !== 'identity') {
      discard(res.body);
      throw new FetchError('network', `codificación de transferencia no soportada: ${encoding}`);
    }
    // The caller reads `out`; a failure anywhere before it (size, decompression, deadline) reaches it
    // as a FetchError.
    const out = new PassThrough();
    const last = stages[stages.length - 1];
    pipeline([res.body, ...stages] as unknown as readonly NodeJS.ReadWriteStream[]).catch((err: unknown) => {
      out.destroy(toFetchError(err, signal));
    });
    last.pipe(out);
    return { ...base, notModified: false, body: out };
  }
}

/** Drops a body that will not be read (its late errors are of no interest). */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function toFetchError(err: unknown, signal: AbortSignal): FetchError {
  if (err instanceof FetchError) return err;
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof FetchError) return cause;
  if (signal.aborted) return new FetchError('timeout', 'se agotó el tiempo de descarga');
  const e = err as { code?: string; message?: string };
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')
    return new FetchError('timeout', 'se agotó el tiempo de descarga');
  return new FetchError('network', `no se pudo descargar: ${e.code ?? e.message ?? 'error de red'}`);
}
