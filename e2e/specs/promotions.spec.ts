import { DEMO, LIMITED, login } from '../support/helpers.js';
import { type APIRequestContext, expect, type Locator, type Page, test } from '../support/test.js';

// The five Promociones screens on the small demo market: tables or charts drawn from the API, a canvas
// that actually drew something, the invalid-filters state, a drill-down to a product and the XLSX
// download.

/** Two root classifications of the demo license (fetched, not hard-coded). */
async function rootClassifications(request: APIRequestContext): Promise<number[]> {
  const login = await request.post('/v1/auth-token/', { data: DEMO });
  const { token } = await login.json();
  const res = await request.get('/v1/licenses/classifications/me', {
    headers: { authorization: `JWT ${token}` },
  });
  const tree = (await res.json()) as { id: number }[];
  return tree.slice(0, 2).map((n) => n.id);
}

/** True when the canvas has pixels that differ from its first (background) pixel. */
async function canvasDrew(canvas: Locator): Promise<boolean> {
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const ctx = c.getContext('2d');
    if (!ctx || !c.width || !c.height) return false;
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let differing = 0;
    for (let i = 4; i < data.length; i += 4) {
      if (
        data[i] !== data[0] ||
        data[i + 1] !== data[1] ||
        data[i + 2] !== data[2] ||
        data[i + 3] !== data[3]
      )
        differing++;
    }
    return differing > 500;
  });
}

async function expectChart(page: Page) {
  const canvas = page.getByRole('main').locator('canvas').first();
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => canvasDrew(canvas), { timeout: 10_000 }).toBe(true);
}

let classes: number[] = [];
test.beforeAll(async ({ request }) => {
  classes = await rootClassifications(request);
});

const url = (path: string) => `/app/${path}?classificationsIds=${classes.join(',')}`;

test.describe('Promociones', () => {
  test('promotions-by-day: weekly table per seller, a drawn chart, drill-down to a product', async ({
    page,
  }) => {
    await login(page);
    await page.goto(url('promotions-by-day'));
    const main = page.getByRole('main');
    await expect(main.getByTestId('promo-seller').first()).toBeVisible({ timeout: 30_000 });
    expect(await main.getByTestId('promo-seller').count()).toBeGreaterThan(1);
    await expectChart(page);
    // the chart shows one classification at a time: the other one is picked above it
    const title = main.getByTestId('promo-chart-title');
    const first = (await title.textContent()) ?? '';
    await main.getByRole('combobox', { name: 'Clasificación del gráfico' }).click();
    await page.getByRole('option').nth(1).click();
    await expect(title).not.toHaveText(first);
    await expectChart(page);
    // a percentage opens the products behind it; a product links to its detail page
    await main
      .getByRole('button', { name: /^Semana del .*%/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(/promociones de .* productos, que suman .* días-producto/)).toBeVisible({
      timeout: 20_000,
    });
    const link = dialog.locator('a[href*="/app/product/"]').first();
    await expect(link).toBeVisible();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Descargar XLSX' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    await link.click();
    await expect(page).toHaveURL(/\/app\/product\/\d+/);
  });

  test('promotions-by-duration: a table per classification with shares per number of days', async ({
    page,
  }) => {
    await login(page);
    await page.goto(url('promotions-by-duration'));
    const main = page.getByRole('main');
    await expect(main.getByTestId('promo-duration')).toHaveCount(2, { timeout: 30_000 });
    await expect(main.getByRole('columnheader', { name: /^\d+ días?$/ }).first()).toBeVisible();
    const download = page.waitForEvent('download');
    await main.getByRole('button', { name: 'Descargar XLSX' }).click();
    // the screen, its classifications and window (issue 31 item 9)
    expect((await download).suggestedFilename()).toMatch(
      /^promociones_por_duracion_[A-Za-z0-9_+-]+_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/,
    );
  });

  test('promotions-by-type: exclusive, by-quantity and sale per seller and classification', async ({
    page,
  }) => {
    await login(page);
    await page.goto(url('promotions-by-type'));
    const main = page.getByRole('main');
    await expect(main.getByTestId('promo-type-row').first()).toBeVisible({ timeout: 30_000 });
    for (const h of ['Oferta exclusiva', 'Por cantidad', 'Oferta'])
      await expect(main.getByRole('columnheader', { name: h, exact: true })).toBeVisible();
  });

  test('promotions-by-range: stacked bars with four ranges per classification', async ({ page }) => {
    await login(page);
    await page.goto(url('promotions-by-range'));
    const main = page.getByRole('main');
    await expect(main.getByTestId('promo-range')).toHaveCount(2, { timeout: 30_000 });
    await expect(
      main.getByRole('columnheader', { name: /^Precios desde \$[\d.]+ hasta \$[\d.]+$/ }),
    ).toHaveCount(8);
    await expectChart(page);
  });

  test('promotions-by-scatter-plot: a bubble chart that drew', async ({ page }) => {
    await login(page);
    await page.goto(url('promotions-by-scatter-plot'));
    await expect(page.getByRole('main').getByTestId('promo-scatter')).toBeVisible({ timeout: 30_000 });
    await expectChart(page);
  });

  test("from the menu the screen starts with the license's root classifications", async ({ page }) => {
    await login(page);
    await page.goto('/app/promotions-by-type');
    await expect(page).toHaveURL(/classificationsIds=\d+/);
    await expect(page.getByRole('main').getByTestId('promo-type-row').first()).toBeVisible({
      timeout: 30_000,
    });
  });

  test('invalid filters: nothing is sent without classifications', async ({ page }) => {
    await login(page);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/promotion/')) calls.push(r.url());
    });
    await page.goto('/app/promotions-by-day?from_date=2026-10-01');
    await expect(page.getByRole('main').getByText(/Completa los campos marcados/)).toBeVisible({
      timeout: 20_000,
    });
    await page.waitForTimeout(500);
    expect(calls).toEqual([]);
  });

  test('a user without the promotions module is refused by the server', async ({ request }) => {
    const res = await request.post('/v1/auth-token/', { data: LIMITED });
    const { token } = await res.json();
    const call = await request.post('/v1/promotion/level', {
      headers: { authorization: `JWT ${token}`, 'x-module-authorization': 'promotions' },
      data: { classificationsIds: classes },
    });
    expect(call.status()).toBe(403);
  });
});
