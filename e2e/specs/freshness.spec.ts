import { login } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

// How fresh each price is (issue 28): under the prices of the navigation rows, the product detail's
// competitors and the product list, "actualizado hace …"; flagged "desactualizado" exactly when the listing
// was not seen today — the rule the screens' availability already follows ('No disponible').

const FRESH = /^(desactualizado · )?actualizado hace (instantes|\d+ (min|h|días))$/;

test.describe('price freshness', () => {
  test('the navigation rows and the product detail say how fresh each price is', async ({ page }) => {
    await login(page);
    await page.goto('/app/navigation-by-ecommerce');
    const main = page.getByRole('main');
    const link = main.locator('a[href*="/app/product/"]').first();
    await expect(link).toBeVisible({ timeout: 20_000 });
    const notes = main.getByTestId('price-freshness');
    await expect(notes.first()).toBeVisible();
    expect(await notes.count()).toBeGreaterThan(1);
    for (const t of await notes.allTextContents()) expect(t).toMatch(FRESH);

    await link.click();
    await expect(page).toHaveURL(/\/app\/product\/\d+/);
    const table = main.getByRole('table', { name: 'Competidores' });
    const rows = table.locator('tbody tr');
    await expect(rows.first().getByTestId('price-freshness')).toBeVisible({ timeout: 20_000 });
    const n = await rows.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      const note = row.getByTestId('price-freshness');
      await expect(note).toHaveText(FRESH);
      const availability = (await row.locator('td').nth(6).textContent())?.trim();
      const stale = await note.getAttribute('data-stale');
      // not seen today ⇔ 'No disponible' (out of stock, 'No Disponible', says nothing of the day)
      if (availability === 'No disponible') expect(stale).toBe('true');
      if (availability === 'Disponible') expect(stale).toBe('false');
      await expect(note).toHaveText(stale === 'true' ? /^desactualizado · / : /^actualizado hace/);
    }
  });

  test('the product list says how fresh each price is', async ({ page }) => {
    await login(page);
    await page.goto('/app/product-list');
    const rows = page.getByRole('main').locator('table tbody tr');
    await expect(rows.first().getByTestId('price-freshness')).toBeVisible({ timeout: 20_000 });
    await expect(rows.getByTestId('price-freshness')).toHaveCount(await rows.count());
    for (const t of await rows.getByTestId('price-freshness').allTextContents()) expect(t).toMatch(FRESH);
  });
});
