import { login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// The shared filter panel with links a person could paste (issue 18 item 6): values the app cannot read
// or the license does not grant are dropped with a notice, the screen works, and nothing sends the user
// away. Plus the panel's smaller fixes (item 10): SKUs not understood are named, the price range can be
// typed, and on a phone the panel starts closed.

const CRASH = /Esta vista tuvo un problema/;
const NOTICE = /Se quitaron filtros de la dirección que no se pueden usar/;

/** Rows of the first data table in the main area (header rows excluded). */
const bodyRows = (page: Page) => page.getByRole('main').locator('table tbody tr');

/** The snackbar's message (role=alert inside the snackbar). */
const notice = (page: Page) => page.locator('.MuiSnackbar-root').getByRole('alert');

test.describe('filters in the URL', () => {
  for (const path of ['dpm-by-brand', 'dpm-by-ecommerce', 'navigation-by-ecommerce']) {
    test(`${path}: an unreadable date is dropped with a notice and the screen works`, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await login(page);
      await page.goto(`/app/${path}?from_date=garbage&to_date=2026-13-45`);
      await expect(notice(page)).toContainText(NOTICE);
      await expect(notice(page)).toContainText('Desde «garbage» (valor no válido)');
      await expect(notice(page)).toContainText('Hasta «2026-13-45» (valor no válido)');
      // the link is rewritten without them, the fields are empty (not "45-13-2026"), the data loads
      await expect(page).toHaveURL(new RegExp(`/app/${path}$`));
      await expect(page.getByLabel('Hasta', { exact: true })).toHaveValue('');
      await expect(page.getByLabel('Desde', { exact: true })).toHaveValue('');
      await expect(page.getByRole('main').getByText('Total', { exact: true }).first()).toBeVisible({
        timeout: 20_000,
      });
      await expect(page.getByText(CRASH)).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }

  test('bad numbers and brands are dropped, the readable filters stay', async ({ page }) => {
    await login(page);
    await page.goto('/app/dpm-by-brand?from_date=2026-13-45&brands=abc&minPrice=x&maxPrice=5000&match=true');
    await expect(notice(page)).toContainText('Marcas «abc» (valor no válido)');
    await expect(notice(page)).toContainText('Rango de precios');
    await expect(page).toHaveURL(/\/app\/dpm-by-brand\?price_type=MATCH$/);
    await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(CRASH)).toHaveCount(0);
  });

  test('unlicensed competitors and currency are dropped with a notice, not sent to Home', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/dpm-by-ecommerce?sellersIds=999&currency=EUR');
    await expect(notice(page)).toContainText('eCommerce «999» (fuera de tu licencia)');
    await expect(notice(page)).toContainText('Divisa «EUR» (fuera de tu licencia)');
    await expect(page).toHaveURL(/\/app\/dpm-by-ecommerce$/);
    await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });
    expect(await bodyRows(page).count()).toBeGreaterThan(1);
    // the licensed part of a mixed link stays
    await page.goto('/app/dpm-by-brand?currency=USD&sellersIds=999');
    await expect(notice(page)).toContainText('eCommerce «999»');
    await expect(page).toHaveURL(/\/app\/dpm-by-brand\?currency=USD$/);
    await expect(page.getByText(CRASH)).toHaveCount(0);
  });
});

test.describe('filter panel', () => {
  test('pasted SKUs name the tokens not understood', async ({ page }) => {
    await login(page);
    await page.goto('/app/dpm-by-brand');
    const skus = page.getByLabel('SKUs', { exact: true });
    await skus.fill('XYZ-NOEXISTE\nbad$sku');
    await expect(page.getByText(/1 SKU por buscar · no se entiende .*«bad\$sku»/)).toBeVisible();
  });

  test('the price range takes a typed amount, not only the slider steps', async ({ page }) => {
    await login(page);
    await page.goto('/app/dpm-by-brand');
    const min = page.getByRole('textbox', { name: 'Mínimo' });
    await expect(min).toBeVisible({ timeout: 20_000 });
    await min.fill('12.345');
    await min.press('Enter');
    await expect(min).toHaveValue('12.345');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page).toHaveURL(/minPrice=12345(&|$)/);
    await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });
  });

  test('on a phone the panel starts closed and the results are on the first screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page);
    await page.goto('/app/dpm-by-brand?match=true');
    const toggle = page.getByRole('button', { name: 'Mostrar filtros' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const total = page.getByRole('main').getByText('Total', { exact: true }).first();
    await expect(total).toBeVisible({ timeout: 20_000 });
    const box = await total.boundingBox();
    expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(844);
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Ocultar filtros' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});
