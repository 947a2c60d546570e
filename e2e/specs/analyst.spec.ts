import { expectAccessible } from '../support/axe.js';
import { LIMITED, login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// What a pricing analyst tripped on (issue 18): drill-down, shared links at login, state across Back and
// reload, unknown paths — and axe on every built screen.

/** The id of the first product the product list shows (the demo market's ids are not fixed here). */
async function firstProductId(page: Page): Promise<string> {
  await page.goto('/app/product-list');
  const link = page.getByRole('main').locator('table tbody tr a[href*="/app/product/"]').first();
  await expect(link).toBeVisible({ timeout: 20_000 });
  const href = (await link.getAttribute('href')) ?? '';
  const id = /\/app\/product\/(\d+)/.exec(href)?.[1];
  expect(id, href).toBeTruthy();
  return id as string;
}

test.describe('unknown paths get the app, never raw JSON (issue 18 §9)', () => {
  test('a bad id, a file-like path and an unknown path show the not-found views', async ({ page }) => {
    await login(page);
    for (const path of ['/app/dpm-by-brand.xlsx', '/app/esto-no-existe', '/app/a/b/c']) {
      const res = await page.goto(path);
      expect(res?.headers()['content-type'], path).toContain('text/html');
      await expect(page.getByText('No encontramos esta página'), path).toBeVisible();
      await expect(page.getByRole('link', { name: 'Ir al inicio' })).toBeVisible();
      expect(await page.content()).not.toContain('"detail"');
    }
    await expectAccessible(page, 'página no encontrada');
    const res = await page.goto('/app/product/3320.5');
    expect(res?.headers()['content-type']).toContain('text/html');
    await expect(page.getByText('No encontramos este producto')).toBeVisible();
    // the API still answers JSON 404 for a file-like path of its own
    const api = await page.request.get('/v2/nada.xlsx');
    expect(api.status()).toBe(404);
  });
});

test.describe('a shared link survives login (issue 18 §7)', () => {
  test('login returns to the page and query asked for', async ({ page }) => {
    await page.goto('/app/dpm-by-brand?brands=18&sort=name&order=asc');
    await page.waitForURL(/\/login\?next=/);
    expect(new URL(page.url()).searchParams.get('next')).toBe(
      '/app/dpm-by-brand?brands=18&sort=name&order=asc',
    );
    await page.getByLabel(/correo/i).fill('demo@example.com');
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('demo1234');
    await page.getByRole('button', { name: /ingresar/i }).click();
    await page.waitForURL(/\/app\/dpm-by-brand\?/, { timeout: 30_000 });
    const url = new URL(page.url());
    expect(url.pathname).toBe('/app/dpm-by-brand');
    expect(url.searchParams.get('brands')).toBe('18');
    expect(url.searchParams.get('sort')).toBe('name');
  });

  test('another origin in the return parameter is ignored: login goes Home', async ({ page }) => {
    await page.goto('/login?next=%2F%2Fevil.example%2Fapp%2Fx');
    await page.getByLabel(/correo/i).fill('demo@example.com');
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('demo1234');
    await page.getByRole('button', { name: /ingresar/i }).click();
    await page.waitForURL(/\/app\/?$/, { timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(new URL(page.url()).origin); // same page, same origin
    expect(new URL(page.url()).pathname).toBe('/app/');
  });
});

test.describe('state survives Back and reload (issue 18 §8)', () => {
  test('DPM column sort', async ({ page }) => {
    await login(page);
    await page.goto('/app/dpm-by-brand');
    const main = page.getByRole('main');
    const header = main.getByRole('columnheader', { name: /índice promedio/i });
    await expect(main.locator('table tbody tr').nth(2)).toBeVisible({ timeout: 30_000 });
    await header.getByRole('button').click();
    await expect(page).toHaveURL(/sort=index/);
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await page.reload();
    await expect(main.getByRole('columnheader', { name: /índice promedio/i })).toHaveAttribute(
      'aria-sort',
      'descending',
      { timeout: 30_000 },
    );
    await page.goto('/app/');
    await page.goBack();
    await expect(page).toHaveURL(/sort=index/);
    await expect(main.getByRole('columnheader', { name: /índice promedio/i })).toHaveAttribute(
      'aria-sort',
      'descending',
      { timeout: 30_000 },
    );
  });

  test('product list page: page 2 → product → Back lands on page 2', async ({ page }) => {
    await login(page);
    await page.goto('/app/product-list');
    const main = page.getByRole('main');
    const rows = main.locator('table tbody tr');
    await expect(rows).toHaveCount(10, { timeout: 20_000 });
    await main.getByRole('button', { name: /siguiente|next page/i }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(main.getByText(/^11–20 de /)).toBeVisible();
    const second = await rows.first().innerText();
    await rows.first().locator('a[href*="/app/product/"]').first().click();
    await page.waitForURL(/\/app\/product\/\d+/);
    await page.goBack();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(main.getByText(/^11–20 de /)).toBeVisible({ timeout: 20_000 });
    await expect.poll(async () => rows.first().innerText()).toBe(second);
    await page.reload();
    await expect(main.getByText(/^11–20 de /)).toBeVisible({ timeout: 20_000 });
  });

  test('product detail period and dashboard period', async ({ page }) => {
    await login(page);
    const id = await firstProductId(page);
    await page.goto(`/app/product/${id}`);
    const presets = page.getByRole('group', { name: 'Períodos rápidos' });
    await presets.getByRole('button', { name: '3 meses' }).click();
    await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=/);
    await page.reload();
    await expect(
      page.getByRole('group', { name: 'Períodos rápidos' }).getByRole('button', { name: '3 meses' }),
    ).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });

    await page.goto('/app/dashboard');
    const periods = page.getByRole('group', { name: 'Período de los indicadores' });
    await periods.getByRole('button', { name: '30 días' }).click();
    await expect(page).toHaveURL(/days=30/);
    await page.reload();
    await expect(
      page
        .getByRole('group', { name: 'Período de los indicadores' })
        .getByRole('button', { name: '30 días' }),
    ).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });
  });
});

test.describe('competitor drill-down (issue 18 §1)', () => {
  test("lists only that competitor's products, counted in es-CL, with the pager on screen", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page);
    await page.goto('/app/dpm-by-ecommerce');
    const main = page.getByRole('main');
    const rows = main.locator('table').first().locator('tbody > tr');
    await expect(rows.nth(1)).toBeVisible({ timeout: 30_000 });
    // the competitor with the fewest products (last under the default sort by products in common)
    const count = await main.getByRole('button', { name: /^Ver detalle de / }).count();
    const expand = main.getByRole('button', { name: /^Ver detalle de / }).nth(count - 1);
    const row = expand.locator('xpath=ancestor::tr[1]');
    const productsInRow = Number((await row.locator('td').nth(2).innerText()).replace(/\./g, ''));
    expect(productsInRow).toBeGreaterThan(0);
    await expand.click();
    const pager = main.locator('.MuiTablePagination-displayedRows').first();
    await expect(pager).toHaveText(/^1–\d+ de [\d.]+$/, { timeout: 30_000 });
    const total = Number(((await pager.innerText()).split(' de ')[1] ?? '').replace(/\./g, ''));
    // only products that competitor prices: at most its product count, never the pivot's whole catalogue
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(productsInRow);
    const box = await main.locator('.MuiTablePagination-root').first().boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1440);
    // every pager counts with thousands separators: the outer one shows the competitor count
    await expect(main.locator('.MuiTablePagination-displayedRows').last()).toHaveText(/^1–\d+ de \d+$/);
  });
});

test.describe('accessibility: no serious or critical axe violation on any built screen', () => {
  test('public screens', async ({ page }) => {
    for (const path of ['/login', '/reset-password']) {
      await page.goto(path);
      await expect(page.getByRole('button').first()).toBeVisible();
      await expectAccessible(page, path);
    }
  });

  test('every app screen of the full license', async ({ page }) => {
    test.setTimeout(360_000);
    await login(page);
    await expectAccessible(page, 'Inicio');
    for (const path of [
      '/app/dashboard',
      '/app/dpm-by-brand',
      '/app/dpm-by-classification',
      '/app/dpm-by-ecommerce',
      '/app/navigation-by-ecommerce',
      '/app/product-list',
      '/app/user-profile',
      '/app/reports',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
      await expectAccessible(page, path);
    }
    // the comparator tab and a drill-down
    await page.goto('/app/navigation-by-ecommerce');
    await page.getByRole('tab', { name: 'Comparador' }).click();
    await expectAccessible(page, 'comparador');
    await page.goto('/app/dpm-by-brand');
    await page
      .getByRole('button', { name: /^Ver detalle de / })
      .first()
      .click();
    await expectAccessible(page, 'DPM por marca con productos abiertos');
    // the competitors picker, open
    await page.getByRole('button', { name: /^Competidores/ }).click();
    await expect(page.getByRole('dialog', { name: 'Competidores' })).toBeVisible();
    await expectAccessible(page, 'selector de competidores');
    await page.keyboard.press('Escape');
    // product pages
    const id = await firstProductId(page);
    for (const path of [`/app/product/${id}`, `/app/qmp-detail?id=${id}`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
      await expectAccessible(page, path);
    }
  });

  // the rest of the menu, one test each so that one screen's violation does not hide another's
  // (issue 31 item 6: Promociones por rango had 8 serious at 390 px)
  for (const path of [
    '/app/brand-price-comparator',
    '/app/matches',
    '/app/assortment-by-brand',
    '/app/assortment-by-ecommerce',
    '/app/assortment-by-stock',
    '/app/promotions-by-day',
    '/app/promotions-by-duration',
    '/app/promotions-by-range',
    '/app/promotions-by-scatter-plot',
    '/app/promotions-by-type',
    '/app/image-verification',
    '/app/notifications',
    '/app/notifications-subscriptions',
    '/app/operations',
  ]) {
    test(`menu screen ${path}`, async ({ page }) => {
      test.setTimeout(120_000);
      await login(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
      await expectAccessible(page, path);
    });
  }

  test('a limited license: the denied screen', async ({ page }) => {
    await login(page, LIMITED);
    await expectAccessible(page, 'Inicio (licencia limitada)');
    await page.goto('/app/navigation-by-ecommerce');
    await expect(page.getByRole('main')).toContainText(/licencia/i, { timeout: 20_000 });
    await expectAccessible(page, 'pantalla sin licencia');
  });
});
