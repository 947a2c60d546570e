import { test } from '@playwright/test';
import { login } from '../support/helpers.js';

// temporary: the item 10 "before" screenshot (removed after use)
test('shot', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page);
  await page.goto('/app/assortment-by-stock');
  await page.getByText('Cambios de disponibilidad en el período').waitFor();
  await page.waitForTimeout(2500);
  const chart = page.locator('canvas').first();
  await chart.scrollIntoViewIfNeeded();
  await page.locator('.MuiPaper-root', { has: page.getByText('Cambios de disponibilidad en el período') }).screenshot({ path: process.env.SHOT_PATH ?? '/tmp/w31-shots/x.png' });
});
