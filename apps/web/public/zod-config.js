// zod's global configuration, set before any module of the app runs (a classic script: index.html loads it
// ahead of the deferred module entry). The server's Content-Security-Policy allows no 'unsafe-eval'
// (apps/server/src/app.ts): zod's compiled object parsers (`new Function`) are turned off, and with them
// its probe for eval — a caught `Function('')` that Chromium still reports as a securitypolicyviolation.
// zod reads this object when it loads (v4: globalThis.__zod_globalConfig, what z.config() writes); a
// module calling z.config() could run after the chunk that builds the schemas. Parsing is the same, interpreted.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
