import { LIMITED, login } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

test.describe('product detail', () => {
  test('opens a product from navigation: competitors, history chart, and a new period', async ({ page }) => {
    await login(page);
    await page.goto('/app/navigation-by-ecommerce');
    const link = page.getByRole('main').locator('a[href*="/app/product/"]').first();
    await expect(link).toBeVisible({ timeout: 20_000 });
    await link.click();
    await expect(page).toHaveURL(/\/app\/product\/\d+/);
    const main = page.getByRole('main');
    await expect(main.getByText('Detalle de producto').first()).toBeVisible();
    await expect(main.getByText('Competidores').first()).toBeVisible({ timeout: 20_000 });
    await expect(main.getByText(/^(Disponible|No Disponible|No disponible)$/).first()).toBeVisible();
    await expect(main.getByText('Histórico').first()).toBeVisible();
    await expect(main.locator('canvas').first()).toBeVisible();

    // a different period asks the server again for the history
    const history = page.waitForRequest((r) => r.url().includes('/v1/historical/complete/'));
    const quick = main.getByRole('group', { name: 'Períodos rápidos' }).getByRole('button').first();
    await quick.click();
    await history;

    // a date typed day first (dd-mm-aaaa, whatever the browser's language) asks for that period in ISO
    const day = new Date(Date.now() - 14 * 86_400_000);
    const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(day);
    const typed = `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
    const from = main.getByLabel('Desde', { exact: true });
    const asked = page.waitForRequest(
      (r) =>
        r.url().includes('/v1/historical/complete/') && (r.postData() ?? '').includes(`"from_date":"${iso}"`),
    );
    await from.fill('');
    await from.pressSequentially(typed.replaceAll('-', ''));
    await expect(from).toHaveValue(typed);
    await asked;
  });

  test('an unknown product shows the not-found view', async ({ page }) => {
    await login(page);
    await page.goto('/app/product/999999999');
    await expect(
      page
        .getByRole('main')
        .getByText(/no (se ha )?encontr/i)
        .first(),
    ).toBeVisible({ timeout: 20_000 });
  });
});

test.describe('product list', () => {
  test('pages through products ten at a time', async ({ page }) => {
    await login(page);
    await page.goto('/app/product-list');
    const main = page.getByRole('main');
    await expect(main.getByText('Lista de productos').first()).toBeVisible();
    const rows = main.locator('table tbody tr');
    await expect(rows.first()).toBeVisible({ timeout: 20_000 });
    await expect(rows).toHaveCount(10);
    const first = await rows.first().innerText();
    await main.getByRole('button', { name: /siguiente|next page/i }).click();
    await expect.poll(async () => rows.first().innerText()).not.toBe(first);
  });

  test('searches by a brand word and a name word together', async ({ page }) => {
    await login(page);
    await page.goto('/app/product-list');
    const main = page.getByRole('main');
    const rows = main.locator('table tbody tr');
    await expect(rows).toHaveCount(10, { timeout: 20_000 });
    // ten skeleton rows count as ten rows too: wait for the first product's name (a link)
    await expect(rows.first().getByRole('link').first()).toBeVisible({ timeout: 20_000 });
    // the first listing's brand (second line of its product cell) and a word of its name
    const [name, brand] = (await rows.first().locator('td').first().innerText())
      .split('\n')
      .map((t) => t.trim())
      .filter(Boolean); // the picture before the name may render as an empty line
    const plain = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const word = plain(name)
      .split(/\s+/)
      .find((w) => w.length >= 4 && !plain(brand).includes(w));
    expect(word, `a word of '${name}' outside its brand`).toBeTruthy();
    // typing searches as it goes: wait for the answer to the whole query before reading the rows
    const query = `${brand} ${word}`;
    const answered = page.waitForResponse(
      (r) =>
        r.url().includes('/v1/list-products/') &&
        (r.request().postData() ?? '').includes(JSON.stringify(query)),
    );
    await main.getByLabel('Buscar').fill(query);
    await main.getByLabel('Buscar').press('Enter');
    const body = (await (await answered).json()) as { items: { name: string }[]; totalItems: number };
    expect(body.totalItems).toBeGreaterThan(0);
    // every listing the server found has both words, and the table shows exactly those
    for (const item of body.items) {
      expect(plain(item.name)).toContain(word);
    }
    await expect
      .poll(async () => (await rows.allInnerTexts()).map((t) => plain(t).split('\n')[0]))
      .toEqual(body.items.map((i) => plain(i.name)));
    for (const text of await rows.allInnerTexts()) expect(plain(text)).toContain(plain(brand));
  });
});

test.describe('dashboard', () => {
  for (const user of [undefined, LIMITED]) {
    test(`shows the indicators and the three card groups (${user?.email ?? 'demo'})`, async ({ page }) => {
      await login(page, user);
      await page.goto('/app/dashboard');
      const main = page.getByRole('main');
      for (const text of ['Surtido', 'Precios', 'Promociones']) {
        await expect(main.getByText(text, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
      }
      await expect(main.getByText(/competidores/i).first()).toBeVisible();
      await expect(main.getByText(/más barato/i).first()).toBeVisible();
      await expect(page.getByText('Ocurrió un error obteniendo los indices')).toHaveCount(0);
    });
  }
});
