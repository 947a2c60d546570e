import { useEffect, useRef } from 'react';
import { isApiError } from './api-client.js';
import { notify } from './notifier.js';

// Failure reporting of the detail, list and dashboard loads (seed 001 §8): the seed's message in the
// snackbar — once per failed load, after React Query's retries — or only a log line where the seed says
// so. Session problems (401/403) are already handled by the API client; a cancelled request is no failure.

function isSessionError(error: unknown): boolean {
  return isApiError(error) && (error.status === 401 || error.status === 403);
}

/** Wraps a request: failures are logged (not shown); the caller decides what the user sees. */
export async function logFailure<T>(
  what: string,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!signal?.aborted && !isSessionError(error)) console.error(`${what} falló`, error);
    throw error;
  }
}

/** An imperative load (list pages, downloads): logs the failure and shows `message`. */
export async function loadWithMessage<T>(
  message: string,
  what: string,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await logFailure(what, signal, run);
  } catch (error) {
    if (!signal?.aborted && !isSessionError(error)) notify(message, 'error');
    throw error;
  }
}

/** Shows `message` each time a query ends in failure (after its retries). */
export function useFailureNotice(
  query: { isError: boolean; error: unknown; errorUpdatedAt: number },
  message: string,
  report: (message: string) => void = (m) => notify(m, 'error'),
): void {
  const reported = useRef(0);
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (!isError || errorUpdatedAt === reported.current || isSessionError(error)) return;
    reported.current = errorUpdatedAt;
    report(message);
  }, [isError, error, errorUpdatedAt, message, report]);
}
