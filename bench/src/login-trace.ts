// One login traced: every request from the click on "Ingresar" until Inicio's cards are drawn, with its
// start and end (ms after the click), plus the main thread's long tasks — the critical path of issue 31
// item 11. Against a running server with the demo market:
//   npx tsx bench/src/login-trace.ts --url http://127.0.0.1:PORT [--runs 3]
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const url = arg('url');
if (!url) {
  console.error('--url http://127.0.0.1:PORT');
  process.exit(2);
}
const runs = Number(arg('runs') ?? 2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
try {
  const context = await browser.newContext({ locale: 'es-CL', timezoneId: 'America/Santiago' });
  const page = await context.newPage();
  for (let i = 0; i <= runs; i++) {
    await context.clearCookies();
    await page.goto(`${url}/login`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${url}/login`);
    await page.getByLabel(/correo/i).fill('demo@example.com');
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('demo1234');
    await page.evaluate(() => {
      const w = window as unknown as { __long: { start: number; ms: number }[] };
      w.__long = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__long.push({ start: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask', buffered: false });
    });
    const events: { what: string; start: number; end?: number }[] = [];
    const t0 = Date.now();
    const started = new Map<unknown, { what: string; start: number; end?: number }>();
    page.on('request', (r) => {
      const e = { what: `${r.method()} ${new URL(r.url()).pathname}`, start: Date.now() - t0 };
      started.set(r, e);
      events.push(e);
    });
    page.on('requestfinished', (r) => {
      const e = started.get(r);
      if (e) e.end = Date.now() - t0;
    });
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame())
        events.push({ what: `url ${new URL(f.url()).pathname}`, start: Date.now() - t0 });
    });
    const clickAt = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: /ingresar/i }).click();
    await page.waitForURL(/\/app\/?$/, { timeout: 30_000 });
    await page
      .getByText(/Precios por marca|Competitividad/i)
      .first()
      .waitFor({ timeout: 30_000 });
    const total = Date.now() - t0;
    page.removeAllListeners('request');
    page.removeAllListeners('requestfinished');
    page.removeAllListeners('framenavigated');
    const long = await page.evaluate(
      () => (window as unknown as { __long?: { start: number; ms: number }[] }).__long ?? [],
    );
    console.log(`\n# login ${i}${i === 0 ? ' (cold, assets)' : ''}: ${total} ms`);
    for (const e of events)
      console.log(
        `${String(e.start).padStart(5)} ${e.end !== undefined ? String(e.end).padStart(5) : '    -'}  ${e.what}`,
      );
    for (const l of long)
      console.log(`long task at ${Math.round(l.start - clickAt)} ms: ${Math.round(l.ms)} ms`);
  }
} finally {
  await browser.close();
}
