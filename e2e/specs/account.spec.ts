import { DEMO, LIMITED, login, waitForEmail } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

test.describe('session and navigation guard', () => {
  test('an unknown path goes to the login screen, which shows the tagline', async ({ page }) => {
    await page.goto('/esto/no/existe');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Más información, mejores decisiones').first()).toBeVisible();
  });

  test('a protected page without a session goes to /login', async ({ page }) => {
    await page.goto('/app/dpm-by-brand');
    // /login remembers the page asked for (issue 18 §7: login returns there)
    await expect(page).toHaveURL(/\/login\?next=%2Fapp%2Fdpm-by-brand$/);
  });

  test('a stored version other than 1.7.21 sends the user to /login', async ({ page }) => {
    await login(page);
    await page.evaluate(() => {
      for (const k of Object.keys(localStorage)) if (/version/i.test(k)) localStorage.setItem(k, '1.0.0');
    });
    await page.goto('/app/');
    await expect(page).toHaveURL(/\/login$/);
    // the current version is stored again, so a new login works normally
    await login(page);
    await expect(page).toHaveURL(/\/app\/?$/);
  });
});

test.describe('login', () => {
  test('the submit button stays disabled while the form is invalid', async ({ page }) => {
    await page.goto('/login');
    const submit = page.getByRole('button', { name: /ingresar/i });
    await expect(submit).toBeDisabled();
    await page.getByLabel(/correo/i).fill('no-es-correo');
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('1234567');
    await expect(submit).toBeDisabled();
    await page.getByLabel(/correo/i).fill(DEMO.email);
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('12345678');
    await expect(submit).toBeEnabled();
  });

  test('wrong credentials show "Usuario o contraseña incorrecta"', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel(/correo/i).fill(DEMO.email);
    await page
      .getByLabel(/contraseña/i)
      .first()
      .fill('otra-clave-123');
    await page
      .getByLabel(/contraseña/i)
      .first()
      .press('Enter');
    await expect(page.getByText('Usuario o contraseña incorrecta')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the demo user lands on the home screen with every module card enabled', async ({ page }) => {
    await login(page);
    const main = page.getByRole('main');
    for (const name of [
      'dpm-by-brand',
      'navigation-by-ecommerce',
      'promotions-by-day',
      'assortment-by-stock',
      'reports',
    ]) {
      await expect(main.locator(`a[href$="/app/${name}"]`).first()).toBeVisible();
    }
    // pivot 116: image verification is shown, the brand comparator (seller 5 only) is not
    await expect(main.locator('a[href$="/app/image-verification"]').first()).toBeVisible();
    await expect(main.locator('a[href$="/app/brand-price-comparator"]')).toHaveCount(0);
    await expect(main.getByText('En construcción')).toHaveCount(0);
    // the menu shows every group of the license
    const nav = page.getByRole('navigation');
    for (const group of ['Precios', 'Promociones', 'Surtido', 'Imágenes', 'Reportes']) {
      await expect(nav.getByText(group, { exact: true }).first()).toBeVisible();
    }
  });

  test('the limited user sees disabled cards and only the Precios and Reportes menu groups', async ({
    page,
  }) => {
    await login(page, LIMITED);
    const main = page.getByRole('main');
    await expect(main.getByText('En construcción').first()).toBeVisible();
    await expect(main.locator('a[href$="/app/dpm-by-brand"]').first()).toBeVisible();
    const nav = page.getByRole('navigation');
    await expect(nav.getByText('Precios', { exact: true }).first()).toBeVisible();
    await expect(nav.getByText('Reportes', { exact: true }).first()).toBeVisible();
    await expect(nav.getByText('Promociones', { exact: true })).toHaveCount(0);
    await expect(nav.getByText('Surtido', { exact: true })).toHaveCount(0);
  });
});

test.describe('profile', () => {
  test('renames the user and changes the password (then changes it back)', async ({ page }) => {
    await login(page);
    await page.goto('/app/user-profile');
    await expect(page.getByText('Perfil de usuario').first()).toBeVisible();
    const name = page.getByLabel('Nombre');
    await expect(name).not.toHaveValue('');
    await name.fill('Analista Demo');
    await page.getByRole('button', { name: 'Guardar' }).first().click();
    await expect(page.getByText('Perfil actualizado exitosamente')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Nombre')).toHaveValue('Analista Demo');

    // too short: warning, nothing sent
    await page.getByLabel('Contraseña nueva').fill('corta');
    await page.getByLabel('Confirmación').fill('corta');
    await page.getByRole('button', { name: 'Guardar' }).nth(1).click();
    await expect(page.getByText('La contraseña debe tener al menos 8 caracteres').first()).toBeVisible();

    await page.getByLabel('Contraseña nueva').fill('nueva-clave-1');
    await page.getByLabel('Confirmación').fill('nueva-clave-1');
    await page.getByRole('button', { name: 'Guardar' }).nth(1).click();
    await expect(page.getByText('Contraseña actualizada exitosamente')).toBeVisible();
    await expect(page.getByLabel('Contraseña nueva')).toHaveValue('');

    // the session continues; set the demo password back for the other tests
    await page.getByLabel('Contraseña nueva').fill(DEMO.password);
    await page.getByLabel('Confirmación').fill(DEMO.password);
    await page.getByRole('button', { name: 'Guardar' }).nth(1).click();
    await expect(page.getByText('Contraseña actualizada exitosamente').first()).toBeVisible();
  });
});

test.describe('password recovery', () => {
  test('request, open the e-mail, set a new password, log in with it', async ({ page }) => {
    await page.goto('/login');
    await page.getByText('¿Olvidaste tu contraseña?').click();
    await expect(page).toHaveURL(/\/reset-password$/);
    const since = Date.now();
    await page.getByLabel(/correo/i).fill(LIMITED.email);
    await page.getByRole('button', { name: /recuperar/i }).click();
    await expect(page.getByText('Correo enviado')).toBeVisible();
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect(page).toHaveURL(/\/login$/);

    const mail = await waitForEmail(LIMITED.email, since);
    const link = /(https?:\/\/[^\s"<>]+\/password\/reset\/confirm\/\?[^\s"<>]+)/.exec(mail)?.[1];
    expect(link, 'reset link in the e-mail').toBeTruthy();
    const url = new URL(link!.replace(/&amp;/g, '&'));
    await page.goto(`${url.pathname}${url.search}`);

    await page.getByLabel(/nueva contraseña|contraseña nueva/i).fill('otra-clave-9');
    await page.getByLabel(/confirmación/i).fill('otra-clave-9');
    await page.getByRole('button', { name: /guardar/i }).click();
    await expect(page.getByText('Contraseña actualizada')).toBeVisible();
    await expect(page.getByText('Cambios guardados con éxito')).toBeVisible();
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await page.waitForURL(/\/login$/, { timeout: 15_000 });

    await login(page, { email: LIMITED.email, password: 'otra-clave-9' });
    await expect(page).toHaveURL(/\/app\/?$/);

    // the link works once only
    await page.goto(`${url.pathname}${url.search}`);
    await page.getByLabel(/nueva contraseña|contraseña nueva/i).fill('tercera-clave-1');
    await page.getByLabel(/confirmación/i).fill('tercera-clave-1');
    await page.getByRole('button', { name: /guardar/i }).click();
    await expect(
      page.getByText('No ha sido posible reestablecer su contraseña, por favor intente nuevamente'),
    ).toBeVisible();

    // restore the demo password for the other specs
    const res = await page.request.post('/v1/auth-token/', {
      data: { email: LIMITED.email, password: 'otra-clave-9' },
    });
    const { token } = await res.json();
    const patch = await page.request.patch('/v1/users/me/', {
      data: { password: LIMITED.password },
      headers: { authorization: `JWT ${token}` },
    });
    expect(patch.ok()).toBe(true);
  });

  test('a confirmation link without uid or token is refused', async ({ page }) => {
    await page.goto('/password/reset/confirm/');
    await expect(page.getByText('Falta información')).toBeVisible();
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await page.waitForURL(/\/login$/, { timeout: 15_000 });
  });
});
