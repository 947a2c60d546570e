// Page timings in Debian's Chromium: time from navigation until the first useful content is visible.
import { chromium } from 'playwright-core';
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

export async function benchBrowser({
  baseUrl,
}: BenchTarget): Promise<{ name: string; ms: number; target?: string }[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ARGS,
  });
  const out: { name: string; ms: number; target?: string }[] = [];
  try {
    const page = await browser.newPage({ locale: 'es-CL', timezoneId: 'America/Santiago' });
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel(/correo/i).fill('demo@example.com');
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('demo1234');
    let t = performance.now();
    await page.getByRole('button', { name: /ingresar/i }).click();
    await page.waitForURL(/\/app\/?$/, { timeout: 30_000 });
    await page
      .getByText(/dpm-by-brand|Precios por marca|Competitividad/i)
      .first()
      .waitFor({ timeout: 30_000 });
    out.push({ name: 'login → home', ms: performance.now() - t });

    // DPM by brand: first page of groups rendered (averaged over 3 warm navigations)
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      t = performance.now();
      await page.goto(`${baseUrl}/app/dpm-by-brand`);
      await page.locator('tbody tr').first().waitFor({ timeout: 30_000 });
      if (i > 0) times.push(performance.now() - t);
    }
    out.push({
      name: 'dpm-by-brand first page (warm, mean of 3)',
      ms: times.reduce((a, b) => a + b, 0) / times.length,
      target: '≤ 1500 ms',
    });

    // Product page: competitors table visible
    await page.goto(`${baseUrl}/app/navigation-by-ecommerce`);
    const link = page.locator('a[href*="/app/product/"]').first();
    await link.waitFor({ timeout: 30_000 });
    const href = await link.getAttribute('href');
    if (href) {
      const ptimes: number[] = [];
      for (let i = 0; i < 4; i++) {
        t = performance.now();
        await page.goto(`${baseUrl}${href}`);
        await page.getByText('Competidores').first().waitFor({ timeout: 30_000 });
        await page.locator('table tbody tr').first().waitFor({ timeout: 30_000 });
        if (i > 0) ptimes.push(performance.now() - t);
      }
      out.push({
        name: 'product detail usable (warm, mean of 3)',
        ms: ptimes.reduce((a, b) => a + b, 0) / ptimes.length,
        target: '≤ 1000 ms',
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}
