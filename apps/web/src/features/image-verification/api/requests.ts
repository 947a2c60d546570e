import {
  IMAGE_VERIFICATION_FILE,
  type ImageItemsQueryInput,
  type ImageKpisQueryInput,
  type ImageReviewDecision,
  routes,
  xlsxFileName,
} from '@vigia/domain';
import { callRoute, downloadRoute } from '../../../lib/api-client.js';

// The image-verification calls (seed 001 §7 "Image verification"; route table
// packages/domain/src/routes/image-verification.ts): GET with the filters in the querystring, module
// header 'image_verification' and the pivot header; answers parsed with the route's schema.

const R = routes.imageVerification;

interface CallOptions {
  pivotId: number | null;
  signal?: AbortSignal;
}

export function fetchImageItems(query: ImageItemsQueryInput, o: CallOptions) {
  return callRoute(R.items, { query }, o);
}

export function fetchImageKpis(query: ImageKpisQueryInput, o: CallOptions) {
  return callRoute(R.kpis, { query }, o);
}

export function fetchImageCheck(id: number, o: CallOptions) {
  return callRoute(R.item, { query: { id } }, o);
}

export function saveImageReview(id: number, decision: ImageReviewDecision | null, o: CallOptions) {
  return callRoute(R.review, { body: { id, decision } }, o);
}

/** The list of the current filter as XLSX (every page). */
export function downloadImageItems(query: ImageItemsQueryInput, pivotId: number | null) {
  // the server names the file (Content-Disposition); the fallback is its name without the filters
  const name = xlsxFileName(
    IMAGE_VERIFICATION_FILE,
    [],
    typeof query.comparisonDate === 'string' ? query.comparisonDate : null,
  );
  return downloadRoute(R.itemsXlsx, { query }, name, { pivotId });
}
