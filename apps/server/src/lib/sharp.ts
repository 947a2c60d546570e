import { createRequire } from 'node:module';
import type SharpModule from 'sharp';

let sharp: typeof SharpModule | undefined;

/**
 * sharp (libvips), loaded on its first use rather than at the server's start: module loading that no
 * first request needs (docs/architecture.md, cold start), as ExcelJS (workbook.ts).
 */
export const sharpOf = (): typeof SharpModule =>
  (sharp ??= createRequire(import.meta.url)('sharp') as typeof SharpModule);
