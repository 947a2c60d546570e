import { expectAccessible } from '../support/axe.js';
import { login } from '../support/helpers.js';
import { expect, type Locator, type Page, test } from '../support/test.js';

// The walk of the newest screens as a demanding analyst (Promociones, Surtido, comparator, Imágenes,
// Reportes, Notificaciones) at desktop and phone width: one assertion per defect the walk fixed.

const PHONE = { width: 390, height: 844 };

/** The canvas as a data URL (to see whether something was drawn over it). */
const canvasImage = (canvas: Locator) => canvas.evaluate((el) => (el as HTMLCanvasElement).toDataURL());

/** How far the page scrolls sideways (0: nothing sticks out of the viewport). */
const sideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('charts', () => {
  test('a hover draws the tooltip and throws nothing', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page);
    await page.goto('/app/promotions-by-range');
    const canvas = page.getByTestId('promo-range').first().locator('canvas');
    await expect(canvas).toBeVisible({ timeout: 30_000 });
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no chart');
    // away from the bars, then over the first seller's stack
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.waitForTimeout(400);
    const before = await canvasImage(canvas);
    await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.5);
    await expect.poll(() => canvasImage(canvas), { timeout: 5_000 }).not.toBe(before);
    // register.ts once replaced Chart.js's animation defaults: every hover threw and drew no tooltip
    expect(errors).toEqual([]);
  });
});

test.describe('phone width', () => {
  test.use({ viewport: PHONE });

  test('no screen of the walk scrolls sideways; pagers keep their arrows in sight', async ({ page }) => {
    await login(page);
    for (const path of [
      'image-verification',
      'reports',
      'assortment-by-brand',
      'promotions-by-day',
      'notifications',
    ]) {
      await page.goto(`/app/${path}`);
      await page.waitForLoadState('networkidle');
      expect(await sideScroll(page), path).toBeLessThanOrEqual(0);
    }
    await page.goto('/app/assortment-by-brand');
    const next = page.getByRole('button', { name: /siguiente/i }).first();
    await expect(next).toBeVisible({ timeout: 30_000 });
    const box = await next.boundingBox();
    expect((box?.x ?? PHONE.width) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'assortment-by-brand (phone)');
  });
});

test.describe('Promociones on a phone', () => {
  test.use({ viewport: PHONE });

  test('arriving from the menu, the panel stays closed and the results come first', async ({ page }) => {
    await login(page);
    await page.goto('/app/promotions-by-type');
    await expect(page).toHaveURL(/classificationsIds=/, { timeout: 30_000 });
    await expect(page.getByRole('table').first()).toBeVisible({ timeout: 30_000 });
    // the default classifications arrive a moment after the settings: that moment is not "invalid"
    await expect(page.getByRole('button', { name: 'Mostrar filtros' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });
});

test.describe('Imágenes', () => {
  test('date dd-mm-aaaa, Estado reads Todos, the pager counts in es-CL', async ({ page }) => {
    await login(page);
    await page.goto('/app/image-verification');
    await expect(page.getByLabel('Fecha de comparación', { exact: true })).toHaveAttribute(
      'placeholder',
      'dd-mm-aaaa',
    );
    await expect(page.getByLabel('Estado')).toHaveText('Todos');
    const pager = page.locator('.MuiTablePagination-displayedRows');
    await expect(pager).toHaveText(/^\d+–\d+ de [\d.]+$/, { timeout: 30_000 });
    // thousands separated ("1.449"), never "1449"
    expect(await pager.innerText()).not.toMatch(/\d{4}/);
    await page.getByLabel('Fecha de comparación', { exact: true }).fill('01012001');
    await expect(page).toHaveURL(/comparisonDate=2001-01-01/);
    await expectAccessible(page, 'image-verification');
  });
});

test.describe('Surtido', () => {
  test('the table sort survives a reload', async ({ page }) => {
    await login(page);
    await page.goto('/app/assortment-by-brand');
    const table = page.getByRole('table', { name: 'Surtido por marca' });
    await expect(table.getByTestId('assortment-row').first()).toBeVisible({ timeout: 30_000 });
    const firstName = table.getByTestId('assortment-row').first().locator('td').first();
    const byCount = await firstName.innerText();
    await table.getByRole('button', { name: 'Marca', exact: true }).click();
    await expect(page).toHaveURL(/sort=name&order=asc/);
    await expect.poll(() => firstName.innerText()).not.toBe(byCount);
    const first = await firstName.innerText();
    await page.reload();
    await expect.poll(() => firstName.innerText(), { timeout: 30_000 }).toBe(first);
    await expect(table.locator('th[aria-sort="ascending"]')).toHaveText(/Marca/i);
  });
});

test.describe('Comparador de precios de marca', () => {
  test('a brand is picked with the keyboard and kept on reload', async ({ page }) => {
    await login(page);
    await page.goto('/app/brand-price-comparator');
    const rows = page.getByTestId('brand-comparator-row');
    await expect(rows.nth(1)).toBeVisible({ timeout: 30_000 });
    const pick = rows.nth(1).getByRole('button');
    const name = (await pick.innerText()).trim();
    await pick.focus();
    await page.keyboard.press('Enter');
    await expect(pick).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText(`Tendencia del índice de ${name} por competidor`)).toBeVisible();
    await expect(page).toHaveURL(/brand=\d+/);
    await page.reload();
    await expect(page.getByText(`Tendencia del índice de ${name} por competidor`)).toBeVisible({
      timeout: 30_000,
    });
    await expectAccessible(page, 'brand-price-comparator');
  });
});

test.describe('keyboard', () => {
  test('the first Tab offers to skip the menu to the screen', async ({ page }) => {
    await login(page);
    await page.goto('/app/promotions-by-type');
    await expect(page.getByRole('heading', { name: 'Promociones por formato' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Saltar al contenido' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await expect(page).toHaveURL(/\/app\/promotions-by-type(\?|$)/);
    // the next Tab is inside the screen, not in the top bar or the menu
    await page.keyboard.press('Tab');
    const inMain = await page.evaluate(() => !!document.activeElement?.closest('main'));
    expect(inMain).toBe(true);
  });
});

test.describe('Reportes', () => {
  test('on a phone the subscriptions e-mail row wraps inside the screen', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await login(page);
    await page.goto('/app/reports');
    const button = page.getByRole('button', { name: 'Suscribir correo' });
    await expect(button).toBeVisible({ timeout: 30_000 });
    const box = await button.boundingBox();
    expect((box?.x ?? PHONE.width) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  });
});
