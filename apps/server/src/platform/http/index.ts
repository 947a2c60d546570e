// Public face of the platform's outside fetcher (safe-fetch.ts): feeds and the crawler fetch through it.
export {
  FetchError,
  type FetchErrorCode,
  isPrivateAddress,
  SAFE_FETCH_DEFAULTS,
  type SafeFetchOptions,
  type SafeFetchResult,
  safeFetch,
} from './safe-fetch.js';
