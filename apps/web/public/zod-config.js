// How zod parses, set before the app's modules run (index.html loads this classic script first). zod probes
// whether eval is allowed — `Function('')` — when a schema is built, to compile object parsers; the probe
// alone breaks our Content-Security-Policy (script-src without 'unsafe-eval'). jitless: interpreted parsing,
// no probe. zod reads this object as its global configuration (zod/v4/core: globalThis.__zod_globalConfig).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
