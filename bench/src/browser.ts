// Page timings in Debian's Chromium: time from navigation until the first useful content is visible.
// Part of `npm run bench`; alone against a running server (issue 31 item 11):
//   npx tsx bench/src/browser.ts --url http://127.0.0.1:PORT [--only REGEX] [--runs N]
import { pathToFileURL } from 'node:url';
import { routes } from '@vigia/domain';
import { chromium, type Page } from 'playwright-core';
import type { BenchTarget } from './http.js';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserRow {
  name: string;
  ms: number;
  target?: string;
}

/** Target of every screen's first answer drawn (issue 31 item 11). */
const FIRST_ANSWER_TARGET = '≤ 800 ms';

/**
 * The screens whose first answer is timed: from navigation (a reload of the app, assets cached) until
 * the screen's main area shows data drawn from the server's answer — no skeleton and no progress left
 * in it, and a data row, a chart or a card figure present.
 */
const SCREENS = [
  'dashboard',
  'dpm-by-brand',
  'dpm-by-classification',
  'dpm-by-ecommerce',
  'navigation-by-ecommerce',
  'brand-price-comparator',
  'assortment-by-brand',
  'assortment-by-ecommerce',
  'assortment-by-stock',
  'promotions-by-day',
  'promotions-by-duration',
  'promotions-by-range',
  'promotions-by-scatter-plot',
  'promotions-by-type',
  'image-verification',
  'product-list',
  'notifications',
  'reports',
];

/** Resolves once the main area shows an answer: data present, nothing loading. */
async function firstAnswer(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const main = document.querySelector('main');
      if (!main) return false;
      if (main.querySelector('.MuiSkeleton-root')) return false;
      // a progress bar still loading (a report task's own bar is its state, not the screen loading)
      const loading = Array.from(main.querySelectorAll('[role="progressbar"]')).some(
        (el) => !el.closest('[data-testid="report-task"]'),
      );
      if (loading) return false;
      const row = Array.from(main.querySelectorAll('table tbody tr td')).some(
        (td) => (td.textContent ?? '').trim() !== '',
      );
      // (Reportes: its tasks' section settled — tasks, or the message that there are none yet, as on a
      // market where nobody asked for a report; without it the large market's run waited 30 s for rows)
      const drawn = main.querySelector(
        'canvas, article, [data-testid="heat-map"], [data-testid="notification"], [data-testid="report-task"], section[aria-labelledby="report-tasks-title"]',
      );
      return row || !!drawn;
    },
    undefined,
    { timeout, polling: 'raf' },
  );
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Mean of `runs` warm navigations (one unmeasured first) to `path` until `ready` resolves. */
async function warm(page: Page, url: string, runs: number, ready: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t = performance.now();
    await page.goto(url);
    await ready();
    if (i > 0) times.push(performance.now() - t);
  }
  return mean(times);
}

export async function benchBrowser(
  { baseUrl }: BenchTarget,
  opts: { only?: RegExp; runs?: number } = {},
): Promise<BrowserRow[]> {
  const runs = opts.runs ?? 3;
  const want = (name: string) => !opts.only || opts.only.test(name);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ARGS,
  });
  const out: BrowserRow[] = [];
  try {
    const context = await browser.newContext({ locale: 'es-CL', timezoneId: 'America/Santiago' });
    const page = await context.newPage();
    // login → Inicio: 'Ingresar' clicked until Inicio's cards are on screen (the license lists and
    // brands loaded by /dependencies-loader in between); the first login warms the assets, then a mean.
    const logins: number[] = [];
    for (let i = 0; i <= runs; i++) {
      await context.clearCookies();
      await page.goto(`${baseUrl}/login`);
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel(/correo/i).fill('demo@example.com');
      await page
        .getByLabel(/contraseña/i)
        .first()
        .fill('demo1234');
      const t = performance.now();
      await page.getByRole('button', { name: /ingresar/i }).click();
      // polled on every frame: Playwright's own waits (waitForURL, locator.waitFor) poll at growing
      // intervals (…, 100, 500 ms) and read a page drawn at 0.76 s as 1.3 s (issue 31 item 11)
      await page.waitForFunction(
        () =>
          /^\/app\/?$/.test(location.pathname) &&
          /Precios por marca|Competitividad/i.test(document.querySelector('main')?.textContent ?? ''),
        undefined,
        { timeout: 30_000, polling: 'raf' },
      );
      if (i > 0) logins.push(performance.now() - t);
    }
    if (want('login'))
      out.push({ name: `login → Inicio (mean of ${runs})`, ms: mean(logins), target: '≤ 700 ms' });

    for (const screen of SCREENS) {
      const name = `${screen}: first answer drawn (warm, mean of ${runs})`;
      if (!want(name)) continue;
      try {
        out.push({
          name,
          ms: await warm(page, `${baseUrl}/app/${screen}`, runs, () => firstAnswer(page)),
          target: FIRST_ANSWER_TARGET,
        });
      } catch (error) {
        // a screen that never settles is a finding, not the end of the run
        console.error(`${screen}: ${(error as Error).message.split('\n')[0]}`);
        out.push({ name: `${name} — no answer within 30 s`, ms: Number.NaN, target: FIRST_ANSWER_TARGET });
      }
    }

    // Promociones por día drawn whole: every seller's 8 × 14 table (the screen drew 12 × 8 × 14 cells
    // in 1.1–1.8 s before issue 31 item 11)
    const whole = `promotions-by-day: every seller's table drawn (warm, mean of ${runs})`;
    if (want(whole)) {
      const times: number[] = [];
      for (let i = 0; i <= runs; i++) {
        const answered = page.waitForResponse((r) => r.url().includes(routes.promotions.level.path), {
          timeout: 30_000,
        });
        const t = performance.now();
        await page.goto(`${baseUrl}/app/promotions-by-day`);
        const sellers = ((await (await answered).json()) as { items: unknown[] }).items.length;
        await page.waitForFunction(
          (n) =>
            document.querySelectorAll('[data-testid="promo-seller"] tbody tr').length > 0 &&
            document.querySelectorAll('[data-testid="promo-seller"]').length === n,
          sellers,
          { timeout: 30_000, polling: 'raf' },
        );
        if (i > 0) times.push(performance.now() - t);
      }
      out.push({ name: whole, ms: mean(times), target: FIRST_ANSWER_TARGET });
    }

    // Product page: competitors table visible
    const detail = `product detail usable (warm, mean of ${runs})`;
    if (want(detail)) {
      await page.goto(`${baseUrl}/app/navigation-by-ecommerce`);
      const link = page.locator('a[href*="/app/product/"]').first();
      await link.waitFor({ timeout: 30_000 });
      const href = await link.getAttribute('href');
      if (href)
        out.push({
          name: detail,
          ms: await warm(page, `${baseUrl}${href}`, runs, async () => {
            await page.getByText('Competidores').first().waitFor({ timeout: 30_000 });
            await page.locator('table tbody tr').first().waitFor({ timeout: 30_000 });
          }),
          target: '≤ 1000 ms',
        });
    }
  } finally {
    await browser.close();
  }
  return out;
}

// Alone: against a running server, rows printed as the benchmarks table.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const url = arg('url');
  if (!url) {
    console.error('--url http://127.0.0.1:PORT: un servidor en marcha con el mercado de demostración');
    process.exit(2);
  }
  const rows = await benchBrowser(
    { baseUrl: url, token: '' },
    { only: arg('only') ? new RegExp(arg('only') as string) : undefined, runs: Number(arg('runs') ?? 3) },
  );
  console.log('| page (Chromium) | ms | target |\n|---|---:|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.ms.toFixed(0)} | ${r.target ?? ''} |`);
}
