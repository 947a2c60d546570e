// Writes dist/code-stamp.txt after the server's build: a hash of the content of every module the server
// runs — its own compiled files and the domain package's (platform/code-stamp.ts). Answers an API process
// saves for the next one are used only by the same code (issue 30, cold start).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../dist', import.meta.url));
const domain = fileURLToPath(new URL('../../../packages/domain/dist', import.meta.url));
const h = createHash('sha256');
for (const [name, root] of [
  ['server', server],
  ['domain', domain],
]) {
  const files = readdirSync(root, { recursive: true })
    .filter((f) => /\.(js|mjs|json)$/.test(f))
    .sort();
  for (const f of files) h.update(`${name}/${f}\n`).update(readFileSync(join(root, f)));
}
const stamp = h.digest('hex').slice(0, 32);
writeFileSync(join(server, 'code-stamp.txt'), `${stamp}\n`);
