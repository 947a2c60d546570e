import { LIMITED, login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// The three Surtido screens and the brand price comparator, driven as a user would.

const table = (page: Page, name: RegExp | string) => page.getByRole('main').getByRole('table', { name });
const rowsOf = (page: Page, name: RegExp | string) => table(page, name).locator('tbody tr');

async function sortBy(page: Page, tableName: RegExp | string, column: string) {
  await table(page, tableName)
    .getByRole('columnheader', { name: column })
    .first()
    .getByRole('button')
    .click();
}

test.describe('Surtido', () => {
  for (const [path, noun, summary] of [
    ['assortment-by-brand', 'Marca', 'Todas'],
    ['assortment-by-ecommerce', 'eCommerce', 'Todos'],
  ] as const) {
    test(`${path}: summary row first, sort, page, XLSX, drill-down to a product`, async ({ page }) => {
      await login(page);
      await page.goto(`/app/${path}`);
      const name = `Surtido por ${noun}`;
      await expect(page.getByTestId('assortment-summary-row')).toBeVisible({ timeout: 30_000 });
      await expect(rowsOf(page, name).first()).toContainText(summary);
      await expect(page.getByText('Participación en productos')).toBeVisible();
      await expect(table(page, name).getByRole('columnheader', { name: 'Participación' })).toBeVisible();

      // sorting by name keeps the summary row first and reorders the others
      const names = async () =>
        (await rowsOf(page, name).locator('td:first-child').allInnerTexts()).join('|');
      const before = await names();
      await sortBy(page, name, noun);
      await expect.poll(names).not.toBe(before);
      await expect(rowsOf(page, name).first()).toContainText(summary);

      // the next page shows other rows, still after the summary row
      const pageOne = await names();
      await page
        .getByRole('button', { name: /siguiente|next page/i })
        .first()
        .click();
      await expect.poll(names).not.toBe(pageOne);
      await expect(rowsOf(page, name).first()).toContainText(summary);

      // XLSX of the table
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Descargar XLSX' }).first().click();
      // Spanish, with the screen and the period (issue 31 item 9)
      expect((await download).suggestedFilename()).toMatch(
        /^(surtido_por_marca|surtido_por_ecommerce|cambio_de_disponibilidad)_.*\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/,
      );

      // a row opens its products (count equal to the row's), which link to their detail page
      const row = rowsOf(page, name).nth(1);
      const label = (await row.locator('td').first().innerText()).split('\n')[0].trim();
      const count = (await row.locator('td').nth(1).innerText()).trim();
      await row.getByRole('button').first().click();
      const panel = page.getByTestId('assortment-products');
      await expect(panel.getByRole('heading', { name: `Productos de ${label}` })).toBeVisible();
      await expect(panel.getByText(new RegExp(`de ${count.replace('.', '\\.')}$`))).toBeVisible({
        timeout: 20_000,
      });
      await expect(page).toHaveURL(/row=/);
      const link = panel.locator('a[href*="/app/product/"]').first();
      await expect(link).toBeVisible();
      await link.click();
      await expect(page).toHaveURL(/\/app\/product\/\d+/);
    });
  }

  test('assortment-by-stock: availability changes per seller and the products that went out', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/assortment-by-stock');
    const name = 'Surtido por eCommerce';
    await expect(page.getByTestId('assortment-summary-row')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Cambios de disponibilidad en el período')).toBeVisible();
    for (const col of ['Sin stock al cierre', 'Disponibilidad', 'Salieron de stock', 'Volvieron a stock'])
      await expect(table(page, name).getByRole('columnheader', { name: col }).first()).toBeVisible();
    // the summary's "went out" count opens the list of those events, with dates
    const summary = page.getByTestId('assortment-summary-row');
    const wentOut = summary.getByRole('button', { name: /^Salieron de stock: Todos/ });
    // the visible count (the name before it is visually hidden text of the same button)
    const count = (await wentOut.innerText()).trim().split(/\s+/).pop() ?? '';
    await wentOut.click();
    const panel = page.getByTestId('assortment-products');
    await expect(panel.getByRole('tab', { name: 'Salieron de stock', selected: true })).toBeVisible();
    await expect(panel.getByText(new RegExp(`de ${count.replace('.', '\\.')}$`))).toBeVisible({
      timeout: 20_000,
    });
    await expect(panel.getByRole('columnheader', { name: 'Días sin stock' })).toBeVisible();
    await expect(panel.locator('tbody tr').first().locator('td').nth(4)).toHaveText(/\d{2}-\d{2}-\d{4}/);
    // the other tabs
    await panel.getByRole('tab', { name: 'Sin stock al cierre' }).click();
    await expect(page).toHaveURL(/stock=out/);
    await expect(panel.getByRole('columnheader', { name: 'Sin stock desde' })).toBeVisible();
  });

  test('without the assortment module the screens are not offered', async ({ page }) => {
    await login(page, LIMITED);
    await page.goto('/app/assortment-by-brand');
    await expect(page.getByText('Funcionalidad no permitida.').first()).toBeVisible();
    await expect(page.getByTestId('assortment-summary-row')).toHaveCount(0);
    const res = await page.request.post('/v1/assortment/brand', {
      headers: { authorization: `JWT ${await page.evaluate(() => localStorage.getItem('token') ?? '')}` },
      data: { currency: 'CLP', sellers: [7] },
    });
    expect([401, 403]).toContain(res.status());
  });
});

test.describe('Comparador de precios de marca', () => {
  test('own brands with their index per competitor and a trend', async ({ page }) => {
    await login(page);
    await page.goto('/app/brand-price-comparator');
    await expect(page.getByTestId('brand-comparator-row').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('brand-comparator-row').first()).toContainText('Propia');
    await expect(page.getByRole('columnheader', { name: 'Índice vs mercado' })).toBeVisible();
    await page.getByTestId('brand-comparator-row').nth(1).click();
    const name = (await page.getByTestId('brand-comparator-row').nth(1).locator('td').first().innerText())
      .split('\n')[0]
      .replace('Propia', '')
      .trim();
    await expect(
      page.getByRole('heading', { name: `Tendencia del índice de ${name} por competidor` }),
    ).toBeVisible();
    await expect(page.getByRole('img', { name: new RegExp(`Índice de precios de ${name}`) })).toBeVisible();
  });
});
