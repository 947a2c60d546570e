import { readFileSync } from 'node:fs';
import { expectAccessible } from '../support/axe.js';
import { expectSnackbar, login } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

// Reportes: request a report, watch it finish live (exporter channel), download it through its signed
// link, subscribe an address and unsubscribe it from the same screen.

test.describe('Reportes', () => {
  test('request a match report, watch it finish, download it', async ({ page }) => {
    await login(page);
    await page.goto('/app/reports');
    await expect(page.getByRole('heading', { name: 'Reportes', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Nuevo reporte' })).toBeVisible();
    // defaults: Match, XLSX
    await expect(page.getByLabel('Tipo de reporte')).toContainText('Match');
    await expect(page.getByLabel('Formato')).toContainText('XLSX');
    await expectAccessible(page, 'reports');

    // CSV, kept in the URL
    await page.getByLabel('Formato').click();
    await page.getByRole('option', { name: 'CSV' }).click();
    await expect(page).toHaveURL(/format=csv/);

    const before = await page.getByTestId('report-task').count();
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    await expectSnackbar(page, 'Reporte solicitado');
    const row = page.getByTestId('report-task').first();
    await expect.poll(() => page.getByTestId('report-task').count()).toBe(before + 1);
    await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
    await expect(row).toContainText('Listo');
    await expect(row).toContainText('CSV');

    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: /^Descargar/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^vigia_match_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await file.path()) as string, 'utf8');
    expect(text.startsWith('\uFEFFSKU;ID eCommerce;EAN;Producto;Marca;')).toBe(true);
    expect(text.split('\r\n').length).toBeGreaterThan(10);

    // the table survives a reload (the server holds the state)
    await page.reload();
    await expect(page.getByTestId('report-task').first()).toHaveAttribute('data-status', 'succeeded');
    await expect(page).toHaveURL(/format=csv/);
  });

  test('an impossible range is refused before anything is sent', async ({ page }) => {
    await login(page);
    await page.goto('/app/reports?from=2026-02-01&to=2026-01-01');
    await expect(page.getByText('La fecha «Hasta» es anterior a «Desde»')).toBeVisible();
  });

  test('subscribe an address and unsubscribe it', async ({ page }) => {
    await login(page);
    await page.goto('/app/reports');
    await page.getByRole('button', { name: 'Suscribir correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Suscribir correo' });
    await expect(dialog.getByLabel('Correo')).toHaveValue('demo@example.com');
    await dialog.getByLabel('Tipo de reporte').click();
    await page.getByRole('option', { name: 'Precios' }).click();
    await dialog.getByLabel('Frecuencia').click();
    await page.getByRole('option', { name: 'Semanal' }).click();
    await dialog.getByLabel('Día').click();
    await page.getByRole('option', { name: 'viernes' }).click();
    await expectAccessible(page, 'reports-subscribe');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expectSnackbar(page, 'Suscripción guardada');
    const sub = page.getByTestId('subscription').filter({ hasText: 'Precios' });
    await expect(sub).toContainText('Semanal, viernes 08:00');
    await expect(sub).toContainText('Sin envíos aún');

    await sub.getByRole('button', { name: /Cancelar suscripción/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancelar suscripción' });
    await confirm.getByRole('button', { name: 'Cancelar suscripción' }).click();
    await expectSnackbar(page, 'Suscripción cancelada');
    await expect(page.getByTestId('subscription').filter({ hasText: 'Precios' })).toHaveCount(0);
  });
});
