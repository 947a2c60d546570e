import { type MatchDecision, type MatchQueueBody, routes } from '@vigia/domain';
import { callRoute } from '../../../lib/api-client.js';

// Coincidencias (route table packages/domain/src/routes/matches.ts; module dpm).

const R = routes.matches;

export function fetchMatchQueue(body: MatchQueueBody, signal?: AbortSignal) {
  return callRoute(R.queue, { body }, { signal });
}

export function decideMatches(decisions: MatchDecision[]) {
  return callRoute(R.decide, { body: { decisions } });
}

export function acceptBrandMatches(brandId: number, minScore: number) {
  return callRoute(R.acceptBrand, { body: { brandId, minScore } });
}

export function reportMatch(productId: number, groupId: number, note?: string) {
  return callRoute(R.report, { body: { listingId: productId, groupId, ...(note ? { note } : {}) } });
}

export function fetchMatchHistory(productId: number, signal?: AbortSignal) {
  return callRoute(R.history, { body: { listingId: productId } }, { signal });
}
