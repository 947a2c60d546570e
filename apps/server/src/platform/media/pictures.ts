import { routePath, routes } from '@vigia/domain';
import type sharp from 'sharp';
import { sharpOf } from '../../lib/sharp.js';
import { MEDIA_KEY, renderProductSvg } from './svg.js';

// Raster product pictures of the demo market (issue 15): the brand's reference picture of an item and
// the picture a seller shows for it, with a known kind of difference. Everything follows from the file
// name, so the same name always gives the same pixels (the bytes are cached on disk by the server).
//
//   <key>.png            the brand's reference picture (key = <icon>-<LABEL>-<code>, platform/media/svg.ts)
//   <key>.<kind>.<ext>   a seller's picture of the same item; the extension is fixed by the kind:
//     identical.png      the reference itself                                  → correct
//     recompressed.jpg   re-encoded as JPEG at quality 65–90                   → correct
//     resized.webp       scaled down to 200–320 px, WebP                       → correct
//     cropped.jpg        7–12 % of the side cut, scaled back up                 → for review
//     watermarked.webp   a dark "OFERTA" badge (15–19 % × 8 % of the side) →   for review
//     recoloured.png     hue rotated by 70–290°                                → incorrect
//     different.jpg      another product's picture (other drawing, colours)    → incorrect
// The severity inside each range comes from a hash of the name (deterministic, spread over the range).
// The expected class of each kind is what the classifier test (image-verification/classifier.test.ts)
// holds the similarity measure to.

export const PICTURE_KINDS = [
  'identical',
  'recompressed',
  'resized',
  'cropped',
  'watermarked',
  'recoloured',
  'different',
] as const;
export type PictureKind = (typeof PICTURE_KINDS)[number];

const EXT: Record<PictureKind | 'reference', 'png' | 'jpg' | 'webp'> = {
  reference: 'png',
  identical: 'png',
  recompressed: 'jpg',
  resized: 'webp',
  cropped: 'jpg',
  watermarked: 'webp',
  recoloured: 'png',
  different: 'jpg',
};
const MIME = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
/** Kinds a demo listing of each image class shows (generator.ts picks the class). */
const KINDS_BY_CLASS: Record<'ok' | 'review' | 'wrong', PictureKind[]> = {
  ok: ['identical', 'recompressed', 'resized'],
  review: ['cropped', 'watermarked'],
  wrong: ['recoloured', 'different'],
};
const SIZE = 400;
const OTHER_ICONS = ['box', 'can', 'bottle', 'bag', 'washer', 'tv', 'phone', 'fridge', 'kettle'];

const BASE_KEY = /^[a-z]{2,12}-[A-Z0-9]{1,12}-[A-Za-z0-9]{1,24}$/;
const FILE = /^([a-z]{2,12}-[A-Z0-9]{1,12}-[A-Za-z0-9]{1,24})(?:\.([a-z]+))?\.(png|jpg|webp)$/;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
/** A number in [lo, hi] fixed by `s` and `salt`. */
const spread = (s: string, salt: string, lo: number, hi: number) =>
  lo + ((hash(`${salt}:${s}`) % 1000) / 999) * (hi - lo);

/** The file name of a picture: the reference (no kind) or a seller's picture of that kind. */
export function pictureFileOf(key: string, kind?: PictureKind): string {
  if (!BASE_KEY.test(key)) throw new Error(`clave de imagen inválida: ${key}`);
  return kind ? `${key}.${kind}.${EXT[kind]}` : `${key}.${EXT.reference}`;
}

/** The server path of a picture (the image-verification pictures route). */
export function pictureUrl(key: string, kind?: PictureKind): string {
  return routePath(routes.imageVerification.picture, { file: pictureFileOf(key, kind) });
}

/** The demo's choice of kind for a listing of an image class: fixed by the listing, spread over the kinds. */
export function demoPictureKind(imageClass: 'ok' | 'review' | 'wrong', listingKey: string): PictureKind {
  const kinds = KINDS_BY_CLASS[imageClass];
  return kinds[hash(listingKey) % kinds.length];
}

interface ParsedFile {
  key: string;
  kind: PictureKind | null;
  ext: 'png' | 'jpg' | 'webp';
}

function parseFile(file: string): ParsedFile | null {
  const m = FILE.exec(file);
  if (!m) return null;
  const kind = (m[2] ?? null) as PictureKind | null;
  if (kind !== null && !PICTURE_KINDS.includes(kind)) return null;
  const ext = m[3] as ParsedFile['ext'];
  if (ext !== EXT[kind ?? 'reference']) return null;
  return { key: m[1], kind, ext };
}

/** Whether `file` names a picture this module draws. */
export function isPictureFile(file: string): boolean {
  return parseFile(file) !== null && MEDIA_KEY.test(file.split('.')[0]);
}

export interface RenderedPicture {
  bytes: Buffer;
  contentType: (typeof MIME)[keyof typeof MIME];
}

function drawing(key: string): ReturnType<typeof sharp> {
  const svg = renderProductSvg(key, { reference: true });
  if (!svg) throw new Error(`clave de imagen inválida: ${key}`);
  return sharpOf()(Buffer.from(svg)).resize(SIZE, SIZE);
}

async function referenceRaster(key: string): Promise<Buffer> {
  return drawing(key).png().toBuffer();
}

function otherKey(key: string): string {
  const [icon, label, code] = key.split('-');
  const others = OTHER_ICONS.filter((i) => i !== icon);
  const other = others[hash(key) % others.length];
  return `${other}-${label}-${[...code].reverse().join('')}`;
}

function watermarkSvg(key: string): Buffer {
  // a dark "OFERTA" badge in the top-right corner, as sellers stamp on offers
  const w = Math.round(SIZE * spread(key, 'wm-w', 0.15, 0.19));
  const h = Math.round(SIZE * 0.08);
  const x = SIZE - w - Math.round(SIZE * 0.04);
  const y = Math.round(SIZE * 0.04);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}">
<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="#333333" fill-opacity="0.85"/>
<text x="${x + w / 2}" y="${y + h * 0.68}" font-family="Arial, Helvetica, sans-serif" font-size="${Math.round(h * 0.5)}"
 font-weight="700" fill="#ffffff" text-anchor="middle" letter-spacing="2">OFERTA</text>
</svg>`,
  );
}

async function sellerRaster(key: string, kind: PictureKind): Promise<Buffer> {
  const ref = await referenceRaster(key);
  const s = `${key}.${kind}`;
  switch (kind) {
    case 'identical':
      return ref;
    case 'recompressed':
      return sharpOf()(ref)
        .jpeg({ quality: Math.round(spread(s, 'q', 65, 90)) })
        .toBuffer();
    case 'resized': {
      const side = Math.round(spread(s, 'side', 200, 320));
      return sharpOf()(ref).resize(side, side).webp({ quality: 80 }).toBuffer();
    }
    case 'cropped': {
      const cut = spread(s, 'cut', 0.07, 0.12);
      const left = Math.round(SIZE * cut * spread(s, 'left', 0.3, 0.7));
      const top = Math.round(SIZE * cut * spread(s, 'top', 0.3, 0.7));
      const side = Math.round(SIZE * (1 - cut));
      return sharpOf()(ref)
        .extract({ left, top, width: side, height: side })
        .resize(SIZE, SIZE)
        .jpeg({ quality: 85 })
        .toBuffer();
    }
    case 'watermarked':
      return sharpOf()(ref)
        .composite([{ input: watermarkSvg(s) }])
        .webp({ quality: 85 })
        .toBuffer();
    case 'recoloured':
      return sharpOf()(ref)
        .modulate({ hue: Math.round(spread(s, 'hue', 70, 290)) })
        .png()
        .toBuffer();
    case 'different':
      return sharpOf()(await referenceRaster(otherKey(key)))
        .jpeg({ quality: 85 })
        .toBuffer();
  }
}

/** Draws the picture a file name stands for; null when the name is not one of ours. */
export async function renderPicture(file: string): Promise<RenderedPicture | null> {
  const p = parseFile(file);
  if (!p || !MEDIA_KEY.test(p.key)) return null;
  const bytes = p.kind ? await sellerRaster(p.key, p.kind) : await referenceRaster(p.key);
  return { bytes, contentType: MIME[p.ext] };
}
