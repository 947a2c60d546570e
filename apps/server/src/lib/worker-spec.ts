import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * How to start the worker thread `name` (a module beside `moduleUrl`, without extension). Built code runs
 * `<name>.js`. The tests run the TypeScript sources: there the thread first registers tsx's loader (a dev
 * dependency; its ESM entry, next to the CommonJS one require.resolve finds), then imports `<name>.ts`.
 */
export function workerSpec(moduleUrl: string, name: string): { file: URL | string; eval: boolean } {
  if (!moduleUrl.endsWith('.ts')) return { file: new URL(`./${name}.js`, moduleUrl), eval: false };
  const tsx = pathToFileURL(
    createRequire(moduleUrl)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const target = new URL(`./${name}.ts`, moduleUrl).href;
  return {
    file: `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(target)}); });`,
    eval: true,
  };
}
