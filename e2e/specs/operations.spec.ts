import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from '../support/axe.js';
import { DEMO, LIMITED, login } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

// Operaciones: an administrator adds an uploaded CSV source (Spanish headers, ';'), maps its columns with
// the preview, imports it now and watches the progress, sees the rejected rows (and downloads them), then
// finds the imported price on the product list.

test.describe('Operaciones', () => {
  test('add a CSV source, map it, import it, see rejections and the new price', async ({ page }) => {
    test.setTimeout(120_000);
    // A listing of the pivot, read through the API: the feed updates its price (a partial feed).
    const auth = await page.request.post('/v1/auth-token/', { data: DEMO });
    const { token } = await auth.json();
    const list = await page.request.post('/v1/list-products/', {
      headers: { authorization: `JWT ${token}` },
      data: {},
    });
    expect(list.ok()).toBe(true);
    const item = (await list.json()).items.find((i: { price: number | null }) => i.price !== null);
    expect(item).toBeTruthy();
    const newPrice = 123457;
    const sourceName = `Planilla e2e ${Date.now()}`; // unique: the spec may run again on the same data
    const dir = mkdtempSync(join(tmpdir(), 'vigia-e2e-ops-'));
    const csvPath = join(dir, 'precios.csv');
    writeFileSync(
      csvPath,
      [
        'Código;Nombre;Precio;Marca',
        `${item.product_id};${item.name ?? 'Producto'};123.457;Marca`,
        'E2E-MALO;Producto roto;doce;Marca',
        'E2E-USD;Producto en dólares;9.990 USD;Marca',
        '',
      ].join('\r\n'),
    );

    await login(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Operaciones' }).click();
    await expect(page).toHaveURL(/\/app\/operations$/);
    await expect(page.getByRole('heading', { name: 'Operaciones', level: 1 })).toBeVisible();
    await expect(page.getByTestId('ops-seller').first()).toBeVisible();
    await expectAccessible(page, 'operations');

    // add the source (keyboard-usable dialog)
    await page.getByRole('button', { name: 'Agregar fuente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agregar fuente' });
    await dialog.getByLabel('eCommerce').click();
    await page.getByRole('option', { name: new RegExp(`^${item.seller_name}`) }).click();
    await dialog.getByLabel('Nombre de la fuente').fill(sourceName);
    await dialog.locator('input[type=file]').setInputFiles(csvPath);
    await dialog.getByLabel('Modo').click();
    await page.getByRole('option', { name: /Parcial/ }).click();
    await dialog.getByRole('button', { name: 'Guardar' }).click();

    // map the columns, with the preview applying them
    const mapping = page.getByRole('dialog', { name: /Asignar columnas/ });
    await expect(mapping.getByTestId('preview-row').first()).toBeVisible();
    await mapping.getByLabel('Precio', { exact: true }).click();
    await page.getByRole('option', { name: 'Precio', exact: true }).click();
    await mapping.getByLabel('Id del producto').click();
    await page.getByRole('option', { name: 'Código', exact: true }).click();
    await expect(mapping.getByTestId('preview-row').first()).toContainText(item.product_id);
    await expect(mapping.getByTestId('preview-row').first()).toContainText('123457');
    await expect(mapping.getByTestId('preview-row').nth(1)).toContainText('precio ilegible');
    await mapping.getByRole('button', { name: 'Guardar asignación' }).click();
    await expect(mapping).toBeHidden();

    // import now: live progress, then the counts
    const source = page.getByTestId('ops-source').filter({ hasText: sourceName });
    await source.getByRole('button', { name: `Importar ahora: ${sourceName}` }).click();
    const state = source.getByTestId('run-state');
    await expect(state).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
    await expect(state).toContainText('3 leídas · 1 escritas · 2 rechazadas');

    const run = page.getByTestId('ops-run').first();
    await expect(run.getByTestId('run-rejected')).toHaveText('2');
    const download = page.waitForEvent('download');
    await run.getByRole('button', { name: /Descargar rechazos/ }).click();
    const file = await download;
    const text = readFileSync((await file.path()) as string, 'utf8');
    expect(text).toContain('línea;id;motivo');
    expect(text).toContain('3;E2E-MALO;precio ilegible: doce');
    expect(text).toMatch(/4;E2E-USD;"?moneda USD distinta/);

    // the seller is fresh now
    await expect(page.getByTestId('ops-seller').filter({ hasText: item.seller_name }).first()).toContainText(
      'actualizado hace',
    );

    // the imported price on an analysis screen: the product list
    await page.goto('/app/product-list');
    await page.getByLabel('Buscar').fill(item.product_id);
    await page.keyboard.press('Enter');
    const row = page.getByRole('table', { name: 'Lista de productos' }).getByRole('row').nth(1);
    await expect(row).toContainText(new Intl.NumberFormat('es-CL').format(newPrice), { timeout: 20_000 });
  });

  test("the organisation's market zone: changed by the administrator, kept, and set back", async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/operations');
    const section = page.getByRole('region', { name: 'Zona horaria del mercado' });
    const zone = section.getByTestId('market-zone');
    await expect(zone).toHaveValue('America/Santiago', { timeout: 20_000 });
    const save = section.getByRole('button', { name: 'Guardar' });
    await expect(save).toBeDisabled(); // nothing changed yet
    await zone.fill('America/Lima');
    await page.getByRole('option', { name: 'America/Lima', exact: true }).click();
    await save.click();
    await expect(page.getByText('Zona del mercado guardada: America/Lima')).toBeVisible();
    await page.reload();
    await expect(zone).toHaveValue('America/Lima', { timeout: 20_000 });
    await expectAccessible(page, 'operations-zone');
    // back to the demo's zone: the other specs read Santiago's days
    await zone.fill('America/Santiago');
    await page.getByRole('option', { name: 'America/Santiago', exact: true }).click();
    await save.click();
    await expect(page.getByText('Zona del mercado guardada: America/Santiago')).toBeVisible();
  });

  test('Operaciones is not in the menu of a user who is not an administrator', async ({ page }) => {
    await login(page, LIMITED);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Inicio' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Operaciones' })).toHaveCount(0);
  });
});
