import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SaxesParser } from 'saxes';

// Sitemaps (sitemaps.org 0.9): a urlset of pages or a sitemapindex of further sitemaps, plain or gzip,
// read as a stream with a real XML parser (saxes) so a 50,000-URL sitemap is never held whole. Bounded:
// at most MAX_URLS locations per file, each at most 2,048 characters, http(s) only.

export const MAX_URLS = 50_000; // sitemaps.org's own limit per file

export interface SitemapEntries {
  kind: 'urlset' | 'sitemapindex';
  /** page URLs (urlset) or sitemap URLs (sitemapindex), in document order */
  locations: string[];
  /** locations dropped: not http(s), too long, or past the per-file limit */
  dropped: number;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** Reads one sitemap from a byte stream (gzip detected by its magic bytes, not by the name). */
export async function readSitemap(
  body: AsyncIterable<Uint8Array>,
  pattern?: RegExp,
): Promise<SitemapEntries> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? new Uint8Array() : first.value;
  const rest: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => iterator,
  };
  async function* all() {
    if (head.length) yield head;
    yield* rest;
  }
  const gz = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  const bytes: AsyncIterable<Uint8Array> = gz ? Readable.from(all()).pipe(createGunzip()) : all();

  const parser = new SaxesParser({ xmlns: false });
  const out: SitemapEntries = { kind: 'urlset', locations: [], dropped: 0 };
  let inLoc = false;
  let loc = '';
  let rootSeen = false;
  parser.on('opentag', (tag) => {
    const name = tag.name.replace(/^.*:/, '');
    if (!rootSeen) {
      rootSeen = true;
      if (name === 'sitemapindex') out.kind = 'sitemapindex';
      else if (name !== 'urlset') throw new Error(`no es un sitemap (raíz <${name.slice(0, 40)}>)`);
    }
    if (name === 'loc') {
      inLoc = true;
      loc = '';
    }
  });
  parser.on('text', (t) => {
    if (inLoc && loc.length <= 2_048) loc += t;
  });
  parser.on('cdata', (t) => {
    if (inLoc && loc.length <= 2_048) loc += t;
  });
  parser.on('closetag', (tag) => {
    if (tag.name.replace(/^.*:/, '') !== 'loc') return;
    inLoc = false;
    const url = loc.trim();
    if (out.locations.length >= MAX_URLS || url.length > 2_048 || !/^https?:\/\//i.test(url)) out.dropped++;
    else if (out.kind === 'sitemapindex' || !pattern || pattern.test(url)) out.locations.push(url);
  });
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for await (const chunk of bytes) parser.write(decoder.decode(chunk as Uint8Array, { stream: true }));
  parser.write(decoder.decode());
  parser.close();
  if (!rootSeen) throw new Error('el sitemap está vacío');
  return out;
}

/** A user's URL pattern ("/p$", "*\/producto/*") as a bounded, literal-safe regular expression. */
export function urlPattern(glob: string | null | undefined): RegExp | undefined {
  if (!glob) return undefined;
  const g = glob.slice(0, 200);
  const source = g
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(source, 'i');
}
