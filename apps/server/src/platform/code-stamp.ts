import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';

// What names the code a process runs (read-model.ts: answers saved by an earlier process are used only by
// the same code): the stamp the server's build writes next to its modules (scripts/write-code-stamp.mjs:
// a hash of the content of every compiled server and domain module), read once. A process run from the
// sources (tsx: the tests, a development server) has no build stamp and gets one of its own, so it never
// reads another process's answers. Read at start-up in one file read: an earlier version hashed ~600
// files' stats on the first kept answer, 2.2–2.7 s of a large cold start's event loop.

let stamp: Promise<string> | null = null;

/** The stamp of the code this process runs. */
export function codeStamp(): Promise<string> {
  stamp ??= readFile(new URL('../code-stamp.txt', import.meta.url), 'utf8').then(
    (s) => s.trim() || `unstamped:${randomUUID()}`,
    () => `unstamped:${randomUUID()}`,
  );
  return stamp;
}
