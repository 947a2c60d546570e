import { createHash } from 'node:crypto';
import { round2 } from '@vigia/domain';
import { sharpOf } from '../../lib/sharp.js';

// The similarity of a seller's picture to the brand's reference picture, in [0, 1], from the pixels
// (docs/metrics.md "Image verification"). Steps, each a function below:
//   1. normalise   both pictures decoded (any format sharp reads), flattened on white, resized to a square
//                  grid (seller 64×64, reference 128×128 so that a part of it can be resampled) in YCbCr;
//   2. fingerprint byte-identical pictures score 1 without decoding; a 64-bit difference hash (dHash) of
//                  each is kept (Hamming distance shown to the reviewer);
//   3. align       the seller's picture is compared with the whole reference and with every square part
//                  of it covering 75–95 % of its side (steps of 2 % of the side): a seller may show a crop;
//                  the part with the best luma SSIM is kept (structural similarity, 8×8 windows, step 4);
//   4. score       similarity = SSIM_Y × coverage^0.2 × colour, where coverage = the share of the reference's
//                  area the seller shows (a crop loses a little), colour = 1 − mean chroma distance / 48
//                  (clamped to [0, 1]: a recoloured product keeps its shape but not its colours);
//   5. difference map  1 − SSIM (luma and colour) per window at the kept alignment, 15×15 values in [0, 1],
//                  for the reviewer's heat map, with the box around the windows that differ most (at least half the largest value).

export const SIMILARITY_ALGORITHM = 'ssim-y64-align-chroma-v1';
const N = 64; // seller grid side
const R = 128; // reference grid side
const WIN = 8;
const STEP = 4;
/** Windows per side of the difference map. */
export const DIFF_GRID = (N - WIN) / STEP + 1;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;
const COVERAGE_EXPONENT = 0.15;
const CHROMA_SCALE = 48;
/** Chroma distance tolerated per pixel (re-encoding, chroma subsampling, resampling at edges). */
const CHROMA_TOLERANCE = 8;
/**
 * The outlined region: the windows whose dissimilarity is at least half the largest one, when that is at
 * least this much (below it nothing differs visibly).
 */
const DIFF_OUTLINE_MIN = 0.08;

interface Planes {
  y: Float32Array;
  cb: Float32Array;
  cr: Float32Array;
  side: number;
}

/** Step 1: decoded, flattened on white, resized to side×side, as YCbCr (BT.601) planes. */
export async function normalise(bytes: Buffer, side: number): Promise<Planes> {
  const raw = await sharpOf()(bytes, { failOn: 'none', limitInputPixels: 50_000_000 })
    .flatten({ background: '#ffffff' })
    .resize(side, side, { fit: 'fill', kernel: 'mitchell' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ch = raw.info.channels;
  const n = side * side;
  const y = new Float32Array(n);
  const cb = new Float32Array(n);
  const cr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = raw.data[i * ch];
    const g = raw.data[i * ch + (ch >= 3 ? 1 : 0)];
    const b = raw.data[i * ch + (ch >= 3 ? 2 : 0)];
    y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  return { y, cb, cr, side };
}

/** Step 2: 64-bit difference hash of a luma plane (9×8 box averages, left < right), as 16 hex digits. */
export function dHash(p: Planes): string {
  const cells = new Float64Array(72);
  const counts = new Uint32Array(72);
  for (let j = 0; j < p.side; j++) {
    const row = Math.min(7, Math.floor(((j + 0.5) * 8) / p.side));
    for (let i = 0; i < p.side; i++) {
      const col = Math.min(8, Math.floor(((i + 0.5) * 9) / p.side));
      cells[row * 9 + col] += p.y[j * p.side + i];
      counts[row * 9 + col]++;
    }
  }
  let bits = 0n;
  for (let row = 0; row < 8; row++)
    for (let col = 0; col < 8; col++) {
      const a = cells[row * 9 + col] / counts[row * 9 + col];
      const b = cells[row * 9 + col + 1] / counts[row * 9 + col + 1];
      bits = (bits << 1n) | (a < b ? 1n : 0n);
    }
  return bits.toString(16).padStart(16, '0');
}

export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** The square part (x, y, side as fractions of the reference's side) of the reference resampled to N×N. */
function sample(ref: Planes, x0: number, y0: number, s: number, plane: 'y' | 'cb' | 'cr'): Float32Array {
  const src = ref[plane];
  const out = new Float32Array(N * N);
  const side = ref.side;
  for (let j = 0; j < N; j++) {
    const v = (y0 + ((j + 0.5) / N) * s) * side - 0.5;
    const v0 = Math.max(0, Math.min(side - 1, Math.floor(v)));
    const v1 = Math.min(side - 1, v0 + 1);
    const fv = Math.max(0, Math.min(1, v - v0));
    for (let i = 0; i < N; i++) {
      const u = (x0 + ((i + 0.5) / N) * s) * side - 0.5;
      const u0 = Math.max(0, Math.min(side - 1, Math.floor(u)));
      const u1 = Math.min(side - 1, u0 + 1);
      const fu = Math.max(0, Math.min(1, u - u0));
      const top = src[v0 * side + u0] * (1 - fu) + src[v0 * side + u1] * fu;
      const bottom = src[v1 * side + u0] * (1 - fu) + src[v1 * side + u1] * fu;
      out[j * N + i] = top * (1 - fv) + bottom * fv;
    }
  }
  return out;
}

/** SSIM per window (WIN×WIN, step STEP) of two N×N planes: DIFF_GRID² values. */
function ssimWindows(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(DIFF_GRID * DIFF_GRID);
  const n = WIN * WIN;
  for (let wy = 0; wy < DIFF_GRID; wy++)
    for (let wx = 0; wx < DIFF_GRID; wx++) {
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let j = wy * STEP; j < wy * STEP + WIN; j++)
        for (let i = wx * STEP; i < wx * STEP + WIN; i++) {
          const x = a[j * N + i];
          const y = b[j * N + i];
          sa += x;
          sb += y;
          saa += x * x;
          sbb += y * y;
          sab += x * y;
        }
      const ma = sa / n;
      const mb = sb / n;
      const va = saa / n - ma * ma;
      const vb = sbb / n - mb * mb;
      const cov = sab / n - ma * mb;
      out[wy * DIFF_GRID + wx] =
        ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
    }
  return out;
}

const mean = (a: Float32Array) => a.reduce((s, v) => s + v, 0) / a.length;
const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

interface Alignment {
  x: number;
  y: number;
  side: number;
  ssim: number;
}

const scoreAt = (seller: Planes, ref: Planes, x: number, y: number, s: number) =>
  mean(ssimWindows(seller.y, sample(ref, x, y, s, 'y')));

/**
 * Step 3: the part of the reference the seller's picture matches best — the whole one first, then a coarse
 * search (sides 95 %…75 % in steps of 5 %, positions in steps of 2 %), then a local refinement of side and
 * position (steps halved from 1 % down to 0.125 %).
 */
function align(seller: Planes, ref: Planes): Alignment {
  const whole: Alignment = { x: 0, y: 0, side: 1, ssim: scoreAt(seller, ref, 0, 0, 1) };
  if (whole.ssim >= 0.995) return whole;
  let best = whole;
  for (let s = 0.95; s >= 0.749; s -= 0.05) {
    const steps = Math.round((1 - s) / 0.02);
    for (let yi = 0; yi <= steps; yi++)
      for (let xi = 0; xi <= steps; xi++) {
        const x = (xi / steps) * (1 - s);
        const y = (yi / steps) * (1 - s);
        const v = scoreAt(seller, ref, x, y, s);
        if (v > best.ssim) best = { x, y, side: s, ssim: v };
      }
  }
  for (let d = 0.01; d >= 0.00125; d /= 2) {
    let moved = true;
    while (moved) {
      moved = false;
      for (const [dx, dy, ds] of [
        [d, 0, 0],
        [-d, 0, 0],
        [0, d, 0],
        [0, -d, 0],
        [0, 0, d],
        [0, 0, -d],
        [-d / 2, -d / 2, d],
        [d / 2, d / 2, -d],
      ]) {
        const s = best.side + ds;
        const x = best.x + dx;
        const y = best.y + dy;
        if (s > 1 || s < 0.7 || x < 0 || y < 0 || x + s > 1 || y + s > 1) continue;
        const v = scoreAt(seller, ref, x, y, s);
        if (v > best.ssim + 1e-4) {
          best = { x, y, side: s, ssim: v };
          moved = true;
        }
      }
    }
  }
  // a part must beat the whole picture clearly: a near-identical picture is not called a crop
  return best.ssim > whole.ssim + 0.01 ? best : whole;
}

export interface SimilarityResult {
  /** in [0, 1]; classes in docs/metrics.md (correct ≥ 0.975, incorrect < 0.94) */
  similarity: number;
  ssim: number;
  coverage: number;
  colour: number;
  referenceHash: string;
  imageHash: string;
  hashDistance: number;
  /** the part of the reference the seller's picture matches (fractions of its side) */
  region: { x: number; y: number; side: number };
  /** DIFF_GRID×DIFF_GRID dissimilarities in [0, 1], row by row, 2 decimals */
  diffMap: number[];
  /** box (fractions of the seller picture's side) around the windows that differ; null when none */
  outline: { x: number; y: number; width: number; height: number } | null;
  algorithm: string;
}

/** The box (fractions of the side) around the windows of a difference map that differ most; null when none. */
export function outlineOf(diff: number[]): SimilarityResult['outline'] {
  const max = Math.max(0, ...diff);
  if (max < DIFF_OUTLINE_MIN) return null;
  let x0 = DIFF_GRID;
  let y0 = DIFF_GRID;
  let x1 = -1;
  let y1 = -1;
  diff.forEach((d, k) => {
    if (d < max / 2) return;
    const wx = k % DIFF_GRID;
    const wy = Math.floor(k / DIFF_GRID);
    x0 = Math.min(x0, wx);
    y0 = Math.min(y0, wy);
    x1 = Math.max(x1, wx);
    y1 = Math.max(y1, wy);
  });
  if (x1 < 0) return null;
  const f = (w: number) => Math.round(((w * STEP) / N) * 1000) / 1000;
  return {
    x: f(x0),
    y: f(y0),
    width: f(x1 + 1) - f(x0) + WIN / N - STEP / N,
    height: f(y1 + 1) - f(y0) + WIN / N - STEP / N,
  };
}

/** Steps 1–5 for one pair of pictures (encoded bytes of any format sharp reads). */
export async function measureSimilarity(reference: Buffer, image: Buffer): Promise<SimilarityResult> {
  const [refSmall, ref, seller] = await Promise.all([
    normalise(reference, N),
    normalise(reference, R),
    normalise(image, N),
  ]);
  const referenceHash = dHash(refSmall);
  const imageHash = dHash(seller);
  const hashDistance = hammingDistance(referenceHash, imageHash);
  const identical =
    reference.length === image.length &&
    createHash('sha1').update(reference).digest('hex') === createHash('sha1').update(image).digest('hex');
  const a = identical ? { x: 0, y: 0, side: 1, ssim: 1 } : align(seller, ref);
  const yWin = ssimWindows(seller.y, sample(ref, a.x, a.y, a.side, 'y'));
  const cb = sample(ref, a.x, a.y, a.side, 'cb');
  const cr = sample(ref, a.x, a.y, a.side, 'cr');
  // chroma distance per pixel, and per window for the map
  const dist = new Float32Array(N * N);
  for (let i = 0; i < N * N; i++)
    dist[i] = Math.max(0, Math.hypot(seller.cb[i] - cb[i], seller.cr[i] - cr[i]) - CHROMA_TOLERANCE);
  const colour = identical ? 1 : clamp01(1 - mean(dist) / CHROMA_SCALE);
  const ssim = identical ? 1 : clamp01(mean(yWin));
  const coverage = a.side * a.side;
  const similarity = identical ? 1 : clamp01(ssim * coverage ** COVERAGE_EXPONENT * colour);
  const diffMap: number[] = [];
  for (let wy = 0; wy < DIFF_GRID; wy++)
    for (let wx = 0; wx < DIFF_GRID; wx++) {
      let d = 0;
      for (let j = wy * STEP; j < wy * STEP + WIN; j++)
        for (let i = wx * STEP; i < wx * STEP + WIN; i++) d += dist[j * N + i];
      const colourWin = clamp01(1 - d / (WIN * WIN) / CHROMA_SCALE);
      const v = identical ? 0 : clamp01(1 - clamp01(yWin[wy * DIFF_GRID + wx]) * colourWin);
      diffMap.push(round2(v));
    }
  return {
    similarity: Math.round(similarity * 10_000) / 10_000,
    ssim,
    coverage,
    colour,
    referenceHash,
    imageHash,
    hashDistance,
    region: { x: a.x, y: a.y, side: a.side },
    diffMap,
    outline: outlineOf(diffMap),
    algorithm: SIMILARITY_ALGORITHM,
  };
}
