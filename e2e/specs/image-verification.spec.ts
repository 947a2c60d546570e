import { expectAccessible } from '../support/axe.js';
import { LIMITED, login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// Imágenes (issue 15): KPIs, filters in the URL, the table with thumbnails, the side-by-side dialog with
// the difference map and the review decision, the XLSX download. The server measures the demo's
// pictures in its job queue after seeding: the spec waits until pictures for review are measured.

const table = (page: Page) => page.getByRole('main').getByRole('table', { name: 'Imágenes por eCommerce' });

/** Opens the screen filtered to pictures for review, reloading until the job has measured some. */
async function openForReview(page: Page) {
  await expect(async () => {
    await page.goto('/app/image-verification?imageClass=forReview');
    await expect(
      table(page)
        .getByRole('button', { name: /^Comparar imágenes de/ })
        .first(),
    ).toBeVisible({
      timeout: 15_000,
    });
  }).toPass({ timeout: 240_000, intervals: [2_000, 5_000, 10_000] });
}

test.describe('Imágenes', () => {
  test('KPIs, table, dialog with the difference map, review decision that sticks, XLSX', async ({ page }) => {
    test.setTimeout(360_000);
    await login(page);
    await openForReview(page);
    await expect(page.getByRole('heading', { name: 'Verificación de imágenes', level: 1 })).toBeVisible();
    for (const kpi of ['Correctas', 'Para revisión', 'Incorrectas'])
      await expect(page.getByText(kpi, { exact: true }).first()).toBeVisible();
    await expect(page.getByText(/Fecha de comparación: \d{2}-\d{2}-\d{4}/)).toBeVisible();

    // every row of the filter is for review, with both thumbnails and a similarity in es-CL
    const rows = table(page).locator('tbody tr');
    await expect(rows.first().getByText('Para revisión')).toBeVisible();
    await expect(rows.first().getByRole('img')).toHaveCount(2);
    await expect(rows.first()).toContainText(/9\d,\d\d %/);
    await expectAccessible(page, 'image-verification');

    // the row opened (by its SKU: the job may still be measuring pictures, which reorders the list)
    const sku = /SKU (\S+) ·/.exec((await rows.first().textContent()) ?? '')?.[1] ?? '';
    const opened = table(page)
      .locator('tbody tr', { hasText: `SKU ${sku} ·` })
      .first();

    // the dialog: both pictures at full size, the measure, the heat map and the outline
    await rows
      .first()
      .getByRole('button', { name: /^Comparar imágenes de/ })
      .press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: /Comparación de imágenes/ })).toBeVisible();
    await expect(dialog.getByRole('img', { name: /Imagen de referencia de la marca/ })).toBeVisible();
    await expect(dialog.getByRole('img', { name: /Imagen en / })).toBeVisible();
    await expect(dialog.getByTestId('iv-similarity')).toContainText(/Similitud: 9\d,\d\d %/);
    await expect(dialog.getByTestId('heat-map')).toBeVisible();
    await expect(page).toHaveURL(/check=\d+/);
    await expectAccessible(page, 'image-verification dialog');
    await dialog.getByRole('button', { name: 'Contorno' }).click();
    await expect(dialog.getByTestId('heat-map')).toBeHidden();
    await dialog.getByRole('button', { name: 'Mapa de calor' }).click();
    await expect(dialog.getByTestId('heat-map')).toBeVisible();

    // the review decision sticks: close, reopen from the URL, it is still there
    await dialog.getByRole('button', { name: 'Aceptar imagen' }).click();
    await expect(dialog.getByTestId('iv-review')).toContainText('Aceptada por');
    const url = page.url();
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await expect(dialog).toBeHidden();
    // an accepted picture leaves 'Para revisión' (issue 31 item 4)
    await expect(opened).toHaveCount(0);
    await page.goto(url);
    await expect(page.getByRole('dialog').getByTestId('iv-review')).toContainText('Aceptada por');
    // undo by keyboard: the focus stays in the dialog (on the decision buttons), so Escape closes it
    await page.getByRole('dialog').getByRole('button', { name: 'Quitar decisión' }).press('Enter');
    await expect(page.getByRole('dialog').getByTestId('iv-review')).toBeHidden();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Aceptar imagen' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    // XLSX of the current filter
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar XLSX' }).click();
    expect((await download).suggestedFilename()).toMatch(
      /^verificacion_de_imagenes_.*\d{4}-\d{2}-\d{2}\.xlsx$/,
    );
  });

  test('filters live in the URL; an empty filter says so', async ({ page }) => {
    await login(page);
    await page.goto('/app/image-verification?comparisonDate=2001-01-01');
    await expect(page.getByText('No hay imágenes verificadas para estos filtros')).toBeVisible({
      timeout: 30_000,
    });
    // shown dd-mm-aaaa like every date field
    await expect(page.getByLabel('Fecha de comparación', { exact: true })).toHaveValue('01-01-2001');
  });

  test('a license without the module does not reach the screen', async ({ page }) => {
    await login(page, LIMITED);
    await page.goto('/app/image-verification');
    await expect(page.getByRole('table', { name: 'Imágenes por eCommerce' })).toHaveCount(0);
  });
});
