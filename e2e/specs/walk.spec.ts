import { expectAccessible } from '../support/axe.js';
import { login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// Issue 18, the rest of the analyst walk: dashboard figures follow the chosen period (item 4), pasted
// SKUs that match no product are named (item 10), and the brand comparator has a menu entry for the
// pivots that have it.

/** The value of a dashboard card ("Índice de precios" → "110,7"). */
async function cardValue(page: Page, title: string): Promise<string> {
  const card = page.getByRole('article', { name: title });
  const value = card.locator('p').first();
  await expect(value).not.toHaveText('—', { timeout: 30_000 });
  return (await value.innerText()).trim();
}

test.describe('dashboard periods', () => {
  test('Índice, Disponibilidad and Descuento follow the chosen period', async ({ page }) => {
    await login(page);
    await page.goto('/app/dashboard?days=7');
    const week = {
      index: await cardValue(page, 'Índice de precios'),
      availability: await cardValue(page, 'Disponibilidad'),
      discount: await cardValue(page, 'Descuento promedio'),
    };
    await expectAccessible(page, 'dashboard (7 días)');
    await page.goto('/app/dashboard?days=90');
    // 90 days average over more days (from the start of monitoring on): not the figures of the week
    await expect
      .poll(async () => cardValue(page, 'Índice de precios'), { timeout: 30_000 })
      .not.toBe(week.index);
    const quarter = {
      index: await cardValue(page, 'Índice de precios'),
      availability: await cardValue(page, 'Disponibilidad'),
      discount: await cardValue(page, 'Descuento promedio'),
    };
    expect(quarter).not.toEqual(week);
    expect(quarter.index).toMatch(/^\d{2,3},\d$/);
  });
});

test.describe('pasted SKUs', () => {
  test('the SKUs no product has are named next to the field after the search', async ({ page }) => {
    await login(page);
    await page.goto('/app/dpm-by-brand');
    const skus = page.getByLabel('SKUs', { exact: true });
    await skus.fill('116-012302\nXYZ-NOEXISTE\nbad$sku');
    await expect(page.getByText(/2 SKUs por buscar · no se entiende .*«bad\$sku»$/)).toBeVisible();
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page).toHaveURL(/SKUs=/);
    await expect(page.getByText(/No encontrados: «XYZ-NOEXISTE»/)).toBeVisible({ timeout: 30_000 });
    // the SKU that exists is not named
    await expect(page.getByText(/No encontrados: .*116-012302/)).toHaveCount(0);
    // taken out of the field, it is no longer named
    await skus.fill('116-012302');
    await expect(page.getByText(/No encontrados/)).toHaveCount(0);
  });
});

test.describe('menu', () => {
  test('the brand comparator is in Precios only for its pivots', async ({ page }) => {
    await login(page);
    const nav = page.getByRole('navigation');
    const entry = nav.getByRole('link', { name: 'Comparador de precios de marca' });
    await page.goto('/app/dpm-by-brand');
    await expect(nav.getByRole('link', { name: 'DPM por marca' })).toBeVisible();
    // the demo user's pivot is Hogar Total (116): no comparator
    await expect(entry).toHaveCount(0);
    // Mercado Central (5) is in BRAND_COMPARATOR_SELLERS
    await page.getByRole('combobox', { name: 'Pivote' }).click();
    await page.getByRole('option', { name: 'Mercado Central' }).click();
    await expect(entry).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(/\/app\/brand-price-comparator$/);
    await expect(entry).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: 'Comparador de precios de marca' }).first()).toBeVisible();
  });
});
