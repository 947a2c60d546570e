import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { routes } from '@vigia/domain';
import { isPictureFile, renderPicture, renderProductSvg } from '../../platform/media/index.js';

// Where the pictures of a check come from, for the screen and for the measure alike (one path, so the
// measure sees the bytes the browser shows):
//   /v1/image-verification/pictures/<file>   the demo market's raster pictures (platform/media/pictures.ts), drawn
//                                            once and cached under DATA_DIR/pictures/ (immutable per name);
//   /media/products|reference/<key>.svg       the older SVG drawings (platform/media/svg.ts), rasterised by sharp;
//   http(s)://…                               a seller's or brand's real picture, fetched (10 s, 15 MB).

const PICTURES_PREFIX = routes.imageVerification.picture.path.replace(':file', '');
const MEDIA_SVG = /^\/media\/(products|reference)\/([^/]+)\.svg$/;
const FETCH_TIMEOUT_MS = 10_000;
const FETCH_MAX_BYTES = 15 * 1024 * 1024;

export interface Picture {
  bytes: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** A demo picture by file name, from the disk cache or drawn (and cached); null when not one of ours. */
export async function demoPicture(file: string, dataDir: string): Promise<Picture | null> {
  if (!isPictureFile(file)) return null;
  const contentType = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
  const dir = join(dataDir, 'pictures');
  const path = join(dir, file);
  try {
    return { bytes: await readFile(path), contentType };
  } catch {
    const drawn = await renderPicture(file);
    if (!drawn) return null;
    await mkdir(dir, { recursive: true });
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, drawn.bytes);
    await rename(tmp, path); // atomic: a concurrent reader sees the whole file or none
    return drawn;
  }
}

async function fetchPicture(url: string): Promise<Picture> {
  const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > FETCH_MAX_BYTES) throw new Error('imagen demasiado grande');
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > FETCH_MAX_BYTES) throw new Error('imagen demasiado grande');
  return { bytes, contentType: res.headers.get('content-type') ?? 'application/octet-stream' };
}

/** The bytes of a check's picture URL (see the list above); throws when it cannot be had. */
export async function loadPicture(url: string, dataDir: string): Promise<Picture> {
  if (url.startsWith(PICTURES_PREFIX)) {
    const p = await demoPicture(decodeURIComponent(url.slice(PICTURES_PREFIX.length)), dataDir);
    if (p) return p;
  }
  const svg = MEDIA_SVG.exec(url);
  if (svg) {
    const drawn = renderProductSvg(svg[2], { reference: svg[1] === 'reference' });
    if (drawn) return { bytes: Buffer.from(drawn), contentType: 'image/svg+xml' };
  }
  if (/^https?:\/\//i.test(url)) return fetchPicture(url);
  throw new Error(`imagen no encontrada: ${url.slice(0, 200)}`);
}
