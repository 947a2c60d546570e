import { Readable } from 'node:stream';
import type { FeedEncoding, FeedFormat, FeedMapping } from '@vigia/domain';
import { type CsvError, parse as csvParse } from 'csv-parse';
import iconv from 'iconv-lite';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { type FeedRow, guessMapping, mapRecord, merchantFieldOf } from './row.js';

// Streaming feed readers: bytes in (a file, an HTTP body), feed rows out with their line numbers. Nothing
// holds the whole feed: the decoder, the XML parser (saxes) and the CSV parser (csv-parse) each keep one
// chunk and the row being read. A problem with one row is a `{ line, error }` item (the import skips and
// reports it); a problem with the whole feed (not XML, wrong encoding, a CSV without the mapped columns)
// throws a FeedError, and the import changes nothing.

export class FeedError extends Error {}

export type FeedItem =
  | { kind: 'columns'; columns: string[]; mapping: FeedMapping }
  | { kind: 'row'; line: number; row: FeedRow }
  | { kind: 'error'; line: number; error: string };

export interface ParseOptions {
  format: FeedFormat;
  encoding?: FeedEncoding;
  /** CSV: Vigía field → column header. Empty or absent: guessed from the headers (Merchant names first). */
  mapping?: FeedMapping;
}

const GOOGLE_NS = 'http://base.google.com/ns/1.0';
/** Longest text kept of one field (a description can be long; the rest is dropped as it streams). */
const MAX_FIELD_CHARS = 16_384;
/** Longest CSV record (characters): a runaway quote cannot swallow the file. */
const MAX_RECORD_CHARS = 1_000_000;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A copy of `s` that does not share the decoded chunk it was cut from. V8 keeps a substring of 13 or more
 * characters as a view into its parent string: the rows' ids and GTINs that an import keeps to its end
 * (the ids seen, ingest's slim record of each candidate) would keep every 64 KB text chunk of the feed
 * alive — by the end of a 100,000-item feed its whole text (64 MB; measured: the import thread ran out of
 * its 128 MB heap at item 90,000). The copy is flat and of the value's own length.
 */
export const ownString = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));

/** Decodes bytes to text: BOM removed; UTF-8 (strict: bad bytes fail the feed) or Latin-1 (Windows-1252). */
export type FeedInput = AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>;

export async function* decode(
  input: FeedInput,
  encoding: FeedEncoding,
  format: FeedFormat,
): AsyncGenerator<string> {
  let decoder: { write(b: Buffer): string; end(): string } | null = null;
  let first = true;
  for await (const raw of input) {
    // (A Buffer is read as it is: copying every chunk of a large feed only made garbage.)
    let chunk =
      typeof raw === 'string'
        ? Buffer.from(raw, 'utf8')
        : Buffer.isBuffer(raw)
          ? raw
          : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (first) {
      first = false;
      if (chunk.subarray(0, 3).equals(UTF8_BOM)) chunk = chunk.subarray(3);
      else if (chunk[0] === 0xff || chunk[0] === 0xfe)
        throw new FeedError('codificación no soportada (UTF-16): guarde el archivo en UTF-8 o Latin-1');
      decoder = makeDecoder(resolveEncoding(chunk, encoding, format));
    }
    const text = decoder!.write(chunk);
    if (text) yield text;
  }
  if (decoder) {
    const rest = decoder.end();
    if (rest) yield rest;
  }
}

function resolveEncoding(head: Buffer, encoding: FeedEncoding, format: FeedFormat): 'utf-8' | 'latin1' {
  if (encoding !== 'auto') return encoding;
  if (format === 'merchant-xml') {
    const decl = /^<\?xml[^>]*encoding\s*=\s*["']([\w.-]+)["']/i.exec(
      head.subarray(0, 300).toString('latin1'),
    );
    if (decl && /^(iso-?8859-1|latin-?1|windows-1252|cp1252)$/i.test(decl[1])) return 'latin1';
    return 'utf-8';
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, 65_536), { stream: true });
    return 'utf-8';
  } catch {
    return 'latin1';
  }
}

function makeDecoder(enc: 'utf-8' | 'latin1'): { write(b: Buffer): string; end(): string } {
  if (enc === 'latin1') {
    const d = iconv.getDecoder('win1252');
    return { write: (b) => d.write(b), end: () => d.end() ?? '' };
  }
  const d = new TextDecoder('utf-8', { fatal: true });
  const wrong = () =>
    new FeedError(
      'el archivo no está en UTF-8 (elija la codificación Latin-1 si viene de una planilla antigua)',
    );
  return {
    write: (b) => {
      try {
        return d.decode(b, { stream: true });
      } catch {
        throw wrong();
      }
    },
    end: () => {
      try {
        return d.decode();
      } catch {
        throw wrong();
      }
    },
  };
}

/** Reads a feed as a stream of items (columns first for CSV/TSV, then rows and row errors, in order). */
export function parseFeed(input: FeedInput, opts: ParseOptions): AsyncGenerator<FeedItem> {
  const text = decode(input, opts.encoding ?? 'auto', opts.format);
  return opts.format === 'merchant-xml' ? parseMerchantXml(text) : parseDelimited(text, opts);
}

// ───────── Merchant XML (RSS 2.0 <item>, Atom <entry>; g: namespace) ─────────

async function* parseMerchantXml(text: AsyncIterable<string>): AsyncGenerator<FeedItem> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const out: FeedItem[] = [];
  let inItem = false;
  let itemLine = 0;
  let depth = 0; // depth inside the item (1 = a field of the item)
  let row: FeedRow = {};
  let field: keyof FeedRow | null = null;
  let value = '';
  let sawRoot = false;
  let sawItem = false;

  parser.on('opentag', (tag: SaxesTagNS) => {
    if (!sawRoot) {
      sawRoot = true;
      if (tag.local !== 'rss' && tag.local !== 'feed')
        throw new FeedError(
          `no es un feed de Merchant Center (raíz <${tag.name}>, se espera <rss> o <feed>)`,
        );
    }
    if (!inItem) {
      if (tag.local === 'item' || tag.local === 'entry') {
        inItem = true;
        sawItem = true;
        itemLine = parser.line;
        depth = 0;
        row = {};
      }
      return;
    }
    depth++;
    if (depth !== 1) return;
    field = null;
    value = '';
    if (tag.uri === GOOGLE_NS) field = merchantFieldOf(tag.local);
    else if (tag.uri === '' || tag.uri === 'http://www.w3.org/2005/Atom') {
      // The item's own RSS/Atom elements fill what the g: ones do not say.
      if (tag.local === 'title' || tag.local === 'description') field = tag.local;
      else if (tag.local === 'summary') field = 'description';
      else if (tag.local === 'link') {
        const href = tag.attributes.href;
        if (href && typeof href === 'object' && !row.link) row.link = ownString(href.value);
        else field = 'link';
      }
    }
  });
  const onText = (t: string) => {
    if (inItem && depth === 1 && field && value.length < MAX_FIELD_CHARS) value += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag: SaxesTagNS) => {
    if (!inItem) return;
    if (depth === 0 && (tag.local === 'item' || tag.local === 'entry')) {
      inItem = false;
      out.push({ kind: 'row', line: itemLine, row });
      return;
    }
    if (depth === 1 && field) {
      const v = ownString(value.slice(0, MAX_FIELD_CHARS).trim());
      // g: fields win over the plain RSS/Atom ones of the same name.
      if (tag.uri === GOOGLE_NS || row[field] === undefined) row[field] = v;
      field = null;
    }
    depth--;
  });
  const fail = (err: unknown): never => {
    if (err instanceof FeedError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    throw new FeedError(`no es XML válido: ${msg.slice(0, 200)}`);
  };
  for await (const chunk of text) {
    try {
      parser.write(chunk);
    } catch (err) {
      fail(err);
    }
    if (out.length) yield* out.splice(0, out.length);
  }
  try {
    parser.close();
  } catch (err) {
    fail(err);
  }
  if (out.length) yield* out.splice(0, out.length);
  if (!sawRoot) throw new FeedError('el archivo está vacío o no es XML');
  if (!sawItem) throw new FeedError('el feed no tiene productos (<item> o <entry>)');
}

// ───────── CSV / TSV ─────────

/** The separator of a delimited file, from its header line (tab, ';' or ','; the most frequent). */
export function sniffDelimiter(header: string): string {
  const counts = ['\t', ';', ','].map((d) => [d, header.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ',';
}

async function* parseDelimited(text: AsyncIterable<string>, opts: ParseOptions): AsyncGenerator<FeedItem> {
  const it = text[Symbol.asyncIterator]();
  // Enough text to see the header line (bounded).
  let head = '';
  while (!/[\r\n]/.test(head) && head.length < 65_536) {
    const n = await it.next();
    if (n.done) break;
    head += n.value;
  }
  if (!head.trim()) throw new FeedError('el archivo está vacío');
  const firstLine = head.split(/\r?\n/, 1)[0];
  const delimiter = opts.format === 'merchant-tsv' ? '\t' : sniffDelimiter(firstLine);
  async function* rest() {
    yield head;
    for (;;) {
      const n = await it.next();
      if (n.done) return;
      yield n.value;
    }
  }
  const skipped: FeedItem[] = [];
  const parser = Readable.from(rest()).pipe(
    csvParse({
      delimiter,
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      max_record_size: MAX_RECORD_CHARS,
      on_skip: (err: CsvError | undefined) => {
        const line = Number((err as { lines?: number } | undefined)?.lines ?? 0);
        skipped.push({ kind: 'error', line, error: `fila mal formada: ${csvReason(err)}` });
        return undefined;
      },
    }),
  );
  let columns: string[] | null = null;
  let mapping: FeedMapping = {};
  try {
    for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (skipped.length) yield* skipped.splice(0, skipped.length);
      if (!columns) {
        columns = rec.record.map((c) => c.trim());
        mapping = opts.mapping && Object.keys(opts.mapping).length ? opts.mapping : guessMapping(columns);
        const missing = ['id', 'price'].filter((f) => !mapping[f as 'id' | 'price']);
        if (missing.length)
          throw new FeedError(
            `faltan columnas para ${missing.join(' y ')} (asigne las columnas del archivo a los campos de Vigía)`,
          );
        const absent = Object.values(mapping).filter((c) => !columns!.includes(c as string));
        if (absent.length)
          throw new FeedError(`el archivo no tiene la columna ${absent.map((c) => `"${c}"`).join(', ')}`);
        yield { kind: 'columns', columns, mapping };
        continue;
      }
      const line = rec.info.lines;
      if (rec.record.length !== columns.length) {
        yield {
          kind: 'error',
          line,
          error: `la fila tiene ${rec.record.length} columnas y el encabezado ${columns.length}`,
        };
        continue;
      }
      yield { kind: 'row', line, row: mapRecord(columns, rec.record, mapping) };
    }
  } catch (err) {
    if (err instanceof FeedError) throw err;
    throw new FeedError(`no se pudo leer el archivo: ${(err as Error).message.slice(0, 200)}`);
  }
  if (skipped.length) yield* skipped.splice(0, skipped.length);
  if (!columns) throw new FeedError('el archivo está vacío');
}

function csvReason(err: CsvError | undefined): string {
  switch (err?.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'comillas sin cerrar';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'INVALID_OPENING_QUOTE':
      return 'comillas mal puestas';
    case 'CSV_MAX_RECORD_SIZE':
      return 'fila demasiado larga';
    default:
      return err?.message?.slice(0, 120) ?? 'error de formato';
  }
}
