import { LIMITED, login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

/** Rows of the first data table in the main area (header rows excluded). */
const bodyRows = (page: Page) => page.getByRole('main').locator('table tbody tr');

/** Clicks the sort control of a column (the label, not the empty rest of the header cell). */
async function sortBy(page: Page, column: string) {
  await page
    .getByRole('main')
    .getByRole('columnheader', { name: column })
    .first()
    .getByRole('button')
    .click();
}

/** On a DPM screen: opens the first group's products and follows the first one to its page. */
async function openFirstProduct(page: Page) {
  const main = page.getByRole('main');
  await main
    .getByRole('button', { name: /^Ver detalle de / })
    .first()
    .click();
  const showProducts = page.getByRole('button', { name: /^Ver productos/ }).first();
  if (await showProducts.isVisible().catch(() => false)) await showProducts.click();
  const productLink = main.locator('a[href*="/app/product/"]').first();
  await expect(productLink).toBeVisible({ timeout: 20_000 });
  await productLink.click();
  await expect(page).toHaveURL(/\/app\/product\/\d+/);
}

test.describe('DPM screens', () => {
  for (const [path, groupLabel] of [
    ['dpm-by-brand', 'Marca'],
    ['dpm-by-classification', 'Clasificación'],
    ['dpm-by-ecommerce', 'eCommerce'],
  ] as const) {
    test(`${path}: KPI cards, the price split and a table of groups`, async ({ page }) => {
      await login(page);
      await page.goto(`/app/${path}`);
      const main = page.getByRole('main');
      await expect(main.getByText('Total', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
      await expect(main.getByText('Con match', { exact: true }).first()).toBeVisible();
      await expect(main.getByText('Publicados con match').first()).toBeVisible();
      await expect(main.getByText('Más barato').first()).toBeVisible();
      await expect(main.getByRole('columnheader', { name: groupLabel }).first()).toBeVisible();
      await expect(bodyRows(page).first()).toBeVisible();
      expect(await bodyRows(page).count()).toBeGreaterThan(1);
    });

    test(`${path}: sort, page, filter and open a product`, async ({ page }) => {
      await login(page);
      await page.goto(`/app/${path}`);
      const main = page.getByRole('main');
      await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });

      // sort by the group column: the order of the rows changes
      const orderOf = async () => (await bodyRows(page).allInnerTexts()).join('|');
      const before = await orderOf();
      await sortBy(page, groupLabel);
      await expect.poll(orderOf).not.toBe(before);

      // page through the groups when there is more than one page
      const next = main.getByRole('button', { name: 'Ir a la página siguiente' }).first();
      if (await next.isEnabled()) {
        const firstPage = await orderOf();
        await next.click();
        await expect.poll(orderOf).not.toBe(firstPage);
      }

      // a filter from the URL: only matched products (and it survives a reload)
      await page.goto(`/app/${path}?match=true`);
      await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });
      await page.reload();
      await expect(page).toHaveURL(/match=true/);
      await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });

      // open the first group's products and follow one to its page
      await openFirstProduct(page);
      await expect(page.getByText('Competidores').first()).toBeVisible({ timeout: 20_000 });
    });
  }

  test('dpm-by-brand: sort, filter through the URL, expand a brand and open a product', async ({ page }) => {
    await login(page);
    await page.goto('/app/dpm-by-brand');
    await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });

    // sorting by the group name changes the order and resets paging
    const firstBefore = await bodyRows(page).first().innerText();
    await sortBy(page, 'Marca');
    await expect.poll(async () => bodyRows(page).first().innerText()).not.toBe(firstBefore);

    // a filter lives in the URL: reloading keeps it
    await page.goto('/app/dpm-by-brand?stockOut=false&match=true');
    await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });
    await page.reload();
    await expect(page).toHaveURL(/match=true/);

    // open the products behind the first brand and follow one to its detail page
    await openFirstProduct(page);
    await expect(page.getByText('Detalle de producto').first()).toBeVisible();
  });
});

test.describe('navigation by e-commerce', () => {
  test('lists my products against every competitor, loads more, sorts, and compares head to head', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/navigation-by-ecommerce');
    await expect(page.getByRole('main').getByText('Mi precio').first()).toBeVisible({ timeout: 20_000 });
    const shown = page.getByRole('main').getByText(/^Mostrando \d+ de [\d.]+ productos$/);
    await expect(shown).toHaveText(/^Mostrando 25 de/, { timeout: 20_000 });
    await expect(bodyRows(page)).toHaveCount(25);

    await page.getByRole('button', { name: 'Cargar más' }).click();
    await expect(shown).toHaveText(/^Mostrando 50 de/);
    await expect(bodyRows(page)).toHaveCount(50);

    // sorting by my price resets the cursor to the first page
    await sortBy(page, 'Mi precio');
    await expect(shown).toHaveText(/^Mostrando 25 de/);

    // the comparator: one competitor, head to head
    await page.getByRole('tab', { name: 'Comparador' }).click();
    await expect(
      page
        .getByRole('main')
        .getByText(/competidor/i)
        .first(),
    ).toBeVisible();
  });

  test('the limited user (no ecommerce_navigation) is refused', async ({ page }) => {
    await login(page, LIMITED);
    await page.goto('/app/navigation-by-ecommerce');
    await expect(page.getByText('Funcionalidad no permitida.').first()).toBeVisible();
    const res = await page.request.get('/v2/navigation/kpi', {
      headers: { authorization: `JWT ${await page.evaluate(() => localStorage.getItem('token') ?? '')}` },
    });
    expect([401, 403]).toContain(res.status());
  });
});
