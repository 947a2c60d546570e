import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEMO, login } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

// Crawler (issue 28) on Operaciones: product pages (the server's crawler fixtures) served by a local HTTP
// server on 127.0.0.1; an administrator adds a crawl source with their URLs, presses Importar ahora, sees
// the run's page counts and opens its pages to read a rejected page's reason.

const FIX = join(import.meta.dirname, '../../apps/server/src/modules/crawler/fixtures');
let server: Server;
let base: string;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt') return res.writeHead(200).end('User-agent: *\nAllow: /\n');
    const file = { '/refrigerador': 'vtex-jsonld.html', '/verificacion': 'captcha.html' }[path];
    if (!file) return res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(FIX, file)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

test('add a crawl source, crawl it now, see its counts and a rejected page’s reason', async ({ page }) => {
  test.setTimeout(120_000);
  // a competitor of its own, so the demo market's listings are left alone
  const auth = await page.request.post('/v1/auth-token/', { data: DEMO });
  const { token } = await auth.json();
  // unique names: a reused data dir keeps the sources of earlier runs
  const stamp = Date.now();
  const sellerName = `Rastreo e2e ${stamp}`;
  const sourceName = `Páginas e2e ${stamp}`;
  const seller = await page.request.post('/v1/operations/sellers', {
    headers: { authorization: `JWT ${token}` },
    data: { name: sellerName, country: 'CL', currency: 'CLP' },
  });
  expect(seller.ok(), await seller.text()).toBe(true);

  await login(page);
  await page.goto('/app/operations');
  await expect(page.getByRole('heading', { name: 'Operaciones', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Agregar fuente' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar fuente' });
  await dialog.getByLabel('eCommerce').click();
  await page.getByRole('option', { name: new RegExp(`^${sellerName}`) }).click();
  await dialog.getByLabel('Nombre de la fuente').fill(sourceName);
  await dialog.getByLabel('Tipo de fuente').click();
  await page.getByRole('option', { name: 'Rastreo de páginas' }).click();
  await dialog
    .getByLabel(/URL de páginas de producto/)
    .fill([`${base}/refrigerador`, `${base}/verificacion`, `${base}/ya-no-existe`].join('\n'));
  await expect(dialog.getByText('3 URL (hasta 100.000)')).toBeVisible();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();

  const source = page.getByTestId('ops-source').filter({ hasText: sourceName });
  await expect(source).toContainText('3 URL');
  await source.getByRole('button', { name: `Importar ahora: ${sourceName}` }).click();
  const state = source.getByTestId('run-state');
  await expect(state).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(state.getByTestId('crawl-counts')).toHaveText(
    '3 planificadas · 3 descargadas · 0 sin cambios (304) · 1 extraídas · 1 rechazadas · 1 fallidas',
  );

  // the run's pages: the failed one first, then the rejected one with its reason
  const run = page.getByTestId('ops-run').filter({ hasText: sourceName }).first();
  await run.getByRole('button', { name: /Ver páginas/ }).click();
  const pages = page.getByRole('dialog', { name: /Páginas del rastreo/ });
  await expect(pages.getByTestId('crawl-page')).toHaveCount(1);
  await expect(pages.getByTestId('crawl-page')).toContainText('página no encontrada (404)');
  await pages.getByLabel('Estado').click();
  await page.getByRole('option', { name: 'Rechazada' }).click();
  const rejected = pages.getByTestId('crawl-page');
  await expect(rejected).toHaveCount(1);
  await expect(rejected).toContainText(`${base}/verificacion`);
  await expect(rejected).toContainText('página de bloqueo');
  await expect(pages.getByRole('button', { name: 'Reintentar fallidas' })).toBeVisible();
  await pages.getByRole('button', { name: 'Cerrar' }).click();
});
