import { expectAccessible, PHONE_VIEWPORT } from '../support/axe.js';
import { closeE2eDb, e2eDb } from '../support/db.js';
import { DEMO, login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// Issue 31 (an analyst's second walk), items 6 and 8: phones (drill-downs full-screen with rows as
// cards, DPM tables showing more than the name, no serious axe violation at 390 px) and URLs (a value a
// screen cannot use is dropped with a notice, never kept nor a trip to Inicio).

test.afterAll(closeE2eDb);

const CRASH = /Esta vista tuvo un problema/;
const NOT_ALLOWED = 'Funcionalidad no permitida.';
/** The snackbar's message. */
const notice = (page: Page) => page.locator('.MuiSnackbar-root').getByRole('alert');

test.describe('item 6: phones', () => {
  test('the promotion drill-down is full-screen with every promotion as a card showing its prices', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await login(page);
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto('/app/promotions-by-day');
    const answered = page.waitForResponse((r) => r.url().includes('/v1/promotion/prices'));
    await page.locator('[data-testid="promo-seller"] button').first().click({ timeout: 30_000 });
    const first = (await (await answered).json()) as {
      total: number;
      items: { name: string; promotion_price: number }[];
    };
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('drill-counts')).toBeVisible({ timeout: 30_000 });
    expect((await dialog.boundingBox())?.width).toBe(PHONE_VIEWPORT.width);
    // one card per promotion of the page, no table
    const cards = dialog.getByTestId('drill-cards').locator(':scope > li');
    await expect(cards).toHaveCount(first.items.length);
    await expect(dialog.locator('table')).toHaveCount(0);
    // the first card: the whole name, and its promotion price inside the screen
    const card = cards.first();
    await expect(card.getByRole('link')).toHaveText(first.items[0].name);
    const price = card
      .locator('dt', { hasText: 'Precio promoción' })
      .locator('xpath=following-sibling::dd[1]');
    await expect(price).toContainText(/\d/);
    const box = await price.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await expectAccessible(page, 'promotions drill-down (cards)');
    // a wide screen keeps the table
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(dialog.locator('table')).toHaveCount(1);
  });

  test('DPM tables show the figures beside the name, and scroll from the keyboard', async ({ page }) => {
    test.setTimeout(180_000);
    await login(page);
    await page.setViewportSize(PHONE_VIEWPORT);
    for (const path of ['/app/dpm-by-brand', '/app/dpm-by-classification', '/app/dpm-by-ecommerce']) {
      await page.goto(path);
      const table = page.getByRole('main').getByRole('table').first();
      // a group's row (its chevron opens it), not the loading row
      const row = table
        .locator('tbody tr')
        .filter({ has: page.getByRole('button', { name: /^Ver detalle de / }) })
        .first();
      await expect(row).toBeVisible({ timeout: 30_000 });
      // name plus at least the next column (Productos) inside the 390 px
      const cells = row.locator('td');
      const products = await cells.nth(2).boundingBox();
      expect(products, path).not.toBeNull();
      expect((products?.x ?? 0) + (products?.width ?? 0), path).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      // the rest scrolls inside a named region the keyboard reaches
      const region = page.getByRole('region', { name: /competitividad de precios/ });
      await expect(region).toHaveAttribute('tabindex', '0');
      await region.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    }
    // a brand's products open inside the row: name and my price on screen
    await page.goto('/app/dpm-by-brand');
    await page
      .getByRole('button', { name: /^Ver detalle de / })
      .first()
      .click({ timeout: 30_000 });
    const items = page.getByRole('main').getByRole('table').nth(1);
    const itemRow = items.locator('tbody tr').first();
    await expect(itemRow).toBeVisible({ timeout: 30_000 });
    const myPrice = await itemRow.locator('td').nth(1).boundingBox();
    expect((myPrice?.x ?? 0) + (myPrice?.width ?? 0)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await expectAccessible(page, 'DPM por marca con productos abiertos');
  });

  test('Promociones por rango and the other promotion screens: no serious axe violation at both widths', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await login(page);
    for (const path of [
      '/app/promotions-by-range',
      '/app/promotions-by-day',
      '/app/promotions-by-type',
      '/app/promotions-by-duration',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('main').locator('table').first()).toBeVisible({ timeout: 30_000 });
      await expectAccessible(page, path);
    }
  });
});

test.describe('item 8: URLs', () => {
  test('an unlicensed classification in a link is dropped with a notice, not sent to Inicio', async ({
    page,
  }) => {
    const db = e2eDb();
    // a classification outside the demo license's subtrees, else an id that does not exist (both a 403)
    const { rows } = await db.query<{ licensed: number; outside: number }>(
      `with lic as (
         select coalesce(array_agg(lc.classification_id), '{}') as roots
           from users u join licenses l on l.org_id = u.org_id
           join license_classifications lc on lc.license_id = l.id
          where u.email = $1)
       select (select c.id from classifications c, lic where c.path && lic.roots order by c.id limit 1) as licensed,
              coalesce((select c.id from classifications c, lic where not (c.path && lic.roots) order by c.id limit 1),
                       (select max(id) + 1000 from classifications)) as outside`,
      [DEMO.email],
    );
    const { licensed, outside } = rows[0];
    await login(page);
    for (const path of ['dpm-by-brand', 'promotions-by-day']) {
      await page.goto(`/app/${path}?classificationsIds=${licensed},${outside}`);
      await expect(notice(page)).toContainText(`Clasificaciones «${outside}» (fuera de tu licencia)`, {
        timeout: 30_000,
      });
      await expect(page).toHaveURL(new RegExp(`/app/${path}\\?classificationsIds=${licensed}$`));
      await expect(page.getByRole('main').locator('table tbody tr').first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText(NOT_ALLOWED)).toHaveCount(0);
      await expect(page.getByText(CRASH)).toHaveCount(0);
    }
  });

  test('a choice a screen does not offer is dropped and the URL says what is shown', async ({ page }) => {
    await login(page);
    await page.goto('/app/dashboard?days=45');
    await expect(notice(page)).toContainText('Se ignoró «45» en la dirección (days)', { timeout: 30_000 });
    await expect(page).toHaveURL(/\/app\/dashboard$/);
    await expect(page.getByRole('button', { name: '7 días' })).toHaveAttribute('aria-pressed', 'true');
    // the same rule on the other screens' own parameters
    await page.goto('/app/notifications?ns=nada&estado=leidas&pagina=-3');
    await expect(notice(page)).toContainText('«nada» (ns)');
    await expect(notice(page)).toContainText('«leidas» (estado)');
    await expect(notice(page)).toContainText('«-3» (pagina)');
    await expect(page).toHaveURL(/\/app\/notifications$/);
    await page.goto('/app/navigation-by-ecommerce?view=mapa&sort_by=precio');
    await expect(notice(page)).toContainText('«mapa» (view)');
    await expect(page).toHaveURL(/\/app\/navigation-by-ecommerce$/);
    await page.goto('/app/product-list?sort=zzz&size=7&order=desc');
    await expect(notice(page)).toContainText('«zzz» (sort)');
    await expect(notice(page)).toContainText('«7» (size)');
    await expect(page).toHaveURL(/\/app\/product-list\?order=desc$/);
    await page.goto('/app/dpm-by-brand?sort=color&order=asc');
    await expect(notice(page)).toContainText('Se ignoró «color» en la dirección (sort)');
    await expect(page).toHaveURL(/\/app\/dpm-by-brand\?order=asc$/);
    await expect(page.getByText(CRASH)).toHaveCount(0);
  });

  test('image verification, assortment, reports and the brand comparator drop what they do not offer', async ({
    page,
  }) => {
    await login(page);
    // image verification: a class it does not have, an impossible day, 120 %, a negative page
    await page.goto(
      '/app/image-verification?imageClass=otra&comparisonDate=2026-02-30&minSimilarity=120&page=-1',
    );
    await expect(notice(page)).toContainText('«otra» (imageClass)', { timeout: 30_000 });
    await expect(notice(page)).toContainText('«2026-02-30» (comparisonDate)');
    await expect(notice(page)).toContainText('«120» (minSimilarity)');
    await expect(notice(page)).toContainText('«-1» (page)');
    await expect(page).toHaveURL(/\/app\/image-verification$/);
    // a band it offers stays (with a decimal comma), and so does a minimum above the maximum: its field says so
    await page.goto('/app/image-verification?minSimilarity=97,5&maxSimilarity=90');
    await expect(page.getByText('Se ignor')).toHaveCount(0);
    await expect(page).toHaveURL(
      /minSimilarity=97%2C5&maxSimilarity=90$|minSimilarity=97,5&maxSimilarity=90$/,
    );
    // assortment: the stock tab exists only on Cambio de disponibilidad
    await page.goto('/app/assortment-by-stock?stock=nada');
    await expect(notice(page)).toContainText('Se ignoró «nada» en la dirección (stock)', { timeout: 30_000 });
    await expect(page).toHaveURL(/\/app\/assortment-by-stock$/);
    await page.goto('/app/assortment-by-brand?stock=went_out');
    await expect(notice(page)).toContainText('Se ignoró «went_out» en la dirección (stock)', {
      timeout: 30_000,
    });
    await expect(page).toHaveURL(/\/app\/assortment-by-brand$/);
    // a row is judged once the table's answer is in
    await page.goto('/app/assortment-by-brand?row=no-existe');
    await expect(notice(page)).toContainText('Se ignoró «no-existe» en la dirección (row)', {
      timeout: 30_000,
    });
    await expect(page).toHaveURL(/\/app\/assortment-by-brand$/);
    // reports: a type, a format and days the form does not offer fall back to its defaults, said
    await page.goto('/app/reports?type=nope&format=pdf&from=2026-02-30&to=ayer');
    await expect(notice(page)).toContainText('«nope» (type)', { timeout: 30_000 });
    await expect(notice(page)).toContainText('«pdf» (format)');
    await expect(notice(page)).toContainText('«2026-02-30» (from)');
    await expect(notice(page)).toContainText('«ayer» (to)');
    await expect(page).toHaveURL(/\/app\/reports$/);
    // the brand comparator: a brand that is not a row of its answer
    await page.goto('/app/brand-price-comparator?brand=987654321');
    await expect(notice(page)).toContainText('Se ignoró «987654321» en la dirección (brand)', {
      timeout: 30_000,
    });
    await expect(page).toHaveURL(/\/app\/brand-price-comparator$/);
    await expect(page.getByText(CRASH)).toHaveCount(0);
  });
});
