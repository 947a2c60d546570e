import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What names the code a process runs (read-model.ts: answers saved by an earlier process are used only
// by the same code): each module file of the server and of the domain package, by path, size and time of
// its last write. A build writes every file again, so any rebuilt code — or an edited source under tsx —
// has another stamp.

let stamp: Promise<string> | null = null;

/** The stamp of the code this process runs (computed once, ~500 file stats). */
export function codeStamp(): Promise<string> {
  stamp ??= (async () => {
    const h = createHash('sha256');
    const roots = [fileURLToPath(new URL('..', import.meta.url))];
    try {
      roots.push(dirname(fileURLToPath(import.meta.resolve('@vigia/domain'))));
    } catch {
      h.update('no domain package path\n');
    }
    for (const root of roots) {
      const files = (await readdir(root, { recursive: true })).filter((f) => /\.(js|mjs|ts)$/.test(f)).sort();
      h.update(`${root}\n`);
      for (const f of files) {
        const s = await stat(join(root, f));
        h.update(`${f}:${s.size}:${s.mtimeMs}\n`);
      }
    }
    return h.digest('hex').slice(0, 32);
  })();
  return stamp;
}
