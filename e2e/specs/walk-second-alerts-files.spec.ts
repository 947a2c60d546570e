import { formatDate, formatNumber } from '@vigia/domain';
import ExcelJS from 'exceljs';
import { closeE2eDb, e2eDb } from '../support/db.js';
import { DEMO, expectSnackbar, login } from '../support/helpers.js';
import { expect, type Page, test } from '../support/test.js';

// Issue 31 (an analyst's second walk), items 5, 9, 10 and 12: alerts true on the prices of their day,
// promotion alerts that lead to their promotions, spreadsheets alike everywhere, availability bars not told
// by colour alone, and the small things. Numbers against the e2e server's own database (support/db.ts).

test.afterAll(closeE2eDb);

/**
 * Every "cheapest" price alert of a user, recomputed from the price history: the listing's effective price
 * (lowest positive of normal, sale, exclusive) right after the change, its price before and whether it was
 * out of stock just before, against each other seller's lowest in-stock effective price of the match group
 * at that instant, all in CLP (the demo users' currency) at the rates of that market day. The domain's
 * ranking rule: position = 1 + sellers strictly cheaper (a tie within 1e-9 is not cheaper).
 */
const ALERTS_SQL = `
with n as (
  select n.id, n.body, e.kind, e.occurred_at as t, e.seller_id, (e.items->0->>0)::bigint as product_id,
         (e.items->0->>3)::bigint as group_id, (e.facts->>'before')::float8 as before, e.facts->>'currency' as cur,
         (e.occurred_at at time zone 'America/Santiago')::date as day
    from notifications n join users u on u.id = n.user_id join change_events e on e.id = n.event_id
   where u.email = $1 and e.kind in ('cheapest_gained', 'cheapest_lost')),
rates as (
  select d.day, r.currency, r.clp_per_unit::float8 as clp
    from (select distinct day from n) d cross join lateral vigia_fx_rates_on(d.day) r where r.currency <> 'CLP'
  union all select distinct day, 'CLP', 1::float8 from n),
eff as (
  select pi.product_id, pi.valid_from, pi.valid_to, pi.stock_out, pi.currency,
         (select min(v) from unnest(array[pi.normal_price, pi.sale_price, pi.exclusive_price]) v where v > 0)::float8 as p
    from price_intervals pi where pi.product_id in (
      select lc.product_id from listing_current lc where lc.group_id in (select group_id from n)))
select n.id, n.kind, n.body,
       (select e.p * r.clp from eff e join rates r on r.day = n.day and r.currency = e.currency
         where e.product_id = n.product_id and e.valid_from <= n.t and coalesce(e.valid_to, 'infinity') > n.t
           and not e.stock_out) as mine,
       n.before * (select clp from rates r where r.day = n.day and r.currency = n.cur) as before_clp,
       coalesce((select e.stock_out from eff e where e.product_id = n.product_id and e.valid_from < n.t
                  order by e.valid_from desc limit 1), false) as was_out,
       coalesce((select array_agg(m) from (
          select min(e.p * r.clp) as m from listing_current lc
            join eff e on e.product_id = lc.product_id and e.valid_from <= n.t
                      and coalesce(e.valid_to, 'infinity') > n.t and not e.stock_out
            join rates r on r.day = n.day and r.currency = e.currency
           where lc.group_id = n.group_id and lc.seller_id <> n.seller_id and lc.published
           group by lc.seller_id) o where m is not null), '{}') as others
  from n`;

const position = (mine: number, others: number[]) =>
  1 + others.filter((o) => o < mine && Math.abs(o - mine) > 1e-9 * Math.min(o, mine)).length;

test.describe('item 5: notifications', () => {
  test('every "más barato" alert holds on the prices of its instant; a rise to the cheapest says why', async () => {
    const { rows } = await e2eDb().query<{
      id: string;
      kind: string;
      body: string;
      mine: number | null;
      before_clp: number;
      was_out: boolean;
      others: number[];
    }>(ALERTS_SQL, [DEMO.email]);
    expect(rows.length, 'the demo user has "cheapest" alerts').toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const r of rows) {
      const others = r.others.map(Number);
      const after = r.mine === null ? null : position(r.mine, others);
      const before = r.was_out ? null : position(r.before_clp, others);
      const ok =
        r.kind === 'cheapest_gained'
          ? after === 1 && (r.was_out || before !== 1)
          : !r.was_out && before === 1 && after !== null && after > 1;
      if (!ok) wrong.push(`${r.id} ${r.kind} after=${after} before=${before} out=${r.was_out}: ${r.body}`);
      // "subió … y ahora es el más barato" only when it came back from out of stock, and it says so
      if (r.kind === 'cheapest_gained' && /subió/.test(r.body)) expect(r.body).toContain('antes sin stock');
    }
    expect(wrong, wrong.slice(0, 5).join('\n')).toEqual([]);
  });

  test('a first login does not open on the backfilled history; the bell names the unread count', async ({
    page,
  }) => {
    const { rows } = await e2eDb().query<{ unread: number; backfilled_unread: number; total: number }>(
      `select count(*) filter (where n.read_at is null)::int as unread,
              count(*) filter (where n.read_at is null and n.created_at - n.occurred_at > interval '1 day')::int
                as backfilled_unread,
              count(*)::int as total
         from notifications n join users u on u.id = n.user_id where u.email = $1`,
      [DEMO.email],
    );
    const { unread, backfilled_unread, total } = rows[0];
    expect(total, 'the demo history has notifications').toBeGreaterThan(100);
    expect(backfilled_unread).toBe(0);
    expect(unread).toBeLessThan(total / 4);
    // the bell's count is the server's (licensed namespaces and sellers): its answer at login
    const counted = page.waitForResponse((r) => r.url().includes('/v1/notifications/unread-count') && r.ok());
    await login(page);
    const shown = ((await (await counted).json()) as { unread: number }).unread;
    expect(shown).toBeLessThanOrEqual(unread);
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notificaciones/ });
    await expect(bell).toBeVisible();
    // the count arrives after the page: the name is awaited, not read once
    await expect(bell).toHaveAttribute(
      'aria-label',
      shown === 0
        ? 'Notificaciones'
        : shown > 99
          ? /99\+ notificaciones nuevas/
          : new RegExp(`\\b${shown} notificaci(ón|ones) nuevas?`),
      { timeout: 15_000 },
    );
  });

  test('a promotion alert opens Promociones por día on that seller and day, listing its products', async ({
    page,
  }) => {
    const { rows } = await e2eDb().query<{ link: string; title: string }>(
      `select n.link, n.title from notifications n join users u on u.id = n.user_id
        where u.email = $1 and n.kind = 'promotion_start' and n.link like '/app/promotions-by-day?%products=%'
          and (n.payload->>'count')::int between 3 and 200
        order by n.occurred_at desc limit 1`,
      [DEMO.email],
    );
    expect(rows.length, 'a promotion alert with several products').toBe(1);
    const link = new URL(rows[0].link, 'http://x');
    const day = link.searchParams.get('from_date') ?? '';
    const seller = Number(link.searchParams.get('seller'));
    const products = (link.searchParams.get('products') ?? '').split(',').map(Number);
    expect(link.searchParams.get('to_date')).toBe(day);
    expect(link.searchParams.get('sellersIds')).toBe(String(seller));
    // what the alert counts: those listings, of that seller, each with a promotion on that day
    const title = rows[0].title;
    expect(title).toContain(`${formatNumber(products.length)} productos`);
    await login(page);
    const prices = page.waitForResponse((r) => r.url().includes('/v1/promotion/prices') && r.ok());
    await page.goto(link.pathname + link.search);
    const answer = (await (await prices).json()) as { products: number; items: { seller: { id: number } }[] };
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Promociones del aviso');
    await expect(dialog.getByTestId('drill-counts')).toContainText(
      `de ${formatNumber(products.length)} productos`,
    );
    await expect(dialog.getByTestId('drill-counts')).toContainText(
      `${formatDate(day)} al ${formatDate(day)}`,
    );
    expect(answer.products).toBe(products.length);
    expect(new Set(answer.items.map((i) => i.seller.id))).toEqual(new Set([seller]));
  });
});

async function download(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  return { name: file.suggestedFilename(), ws: wb.worksheets[0] };
}

const headerOf = (ws: ExcelJS.Worksheet, row = 1) =>
  (ws.getRow(row).values as unknown[]).slice(1).map(String);

test.describe('item 9: spreadsheets alike everywhere', () => {
  test('Promociones por día and its drill-down: Spanish names, date cells, CLP prices as on screen', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await login(page);
    const level = page.waitForResponse((r) => r.url().includes('/v1/promotion/level') && r.ok());
    await page.goto('/app/promotions-by-day');
    const answer = (await (await level).json()) as { from_date: string; to_date: string };
    const main = page.getByRole('main');
    const table = await download(page, () => main.getByRole('button', { name: 'Descargar XLSX' }).click());
    expect(table.name).toMatch(
      new RegExp(`^promociones_por_dia_[A-Za-z0-9_+-]+_${answer.from_date}_${answer.to_date}\\.xlsx$`),
    );
    expect(headerOf(table.ws).slice(2, 5)).toEqual(['Semana', 'Desde', 'Hasta']);
    expect(table.ws.getCell('C2').value).toBeInstanceOf(Date);
    expect(table.ws.getCell('C2').numFmt).toBe('dd-mm-yyyy');

    // the first week cell with promotions opens its drill-down
    await main
      .getByRole('button', { name: /^Semana del/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('drill-counts')).toBeVisible();
    const drill = await download(page, () => dialog.getByRole('button', { name: /descargar xlsx/i }).click());
    // the seller, the classification and the week's dates
    expect(drill.name).toMatch(/^promociones_productos_[A-Za-z0-9_+-]+(_\d{4}-\d{2}-\d{2}){1,2}\.xlsx$/);
    const head = headerOf(drill.ws);
    expect(head).toContain('Precio normal (CLP)');
    expect(head).toContain('Precio promoción (CLP)');
    const promo = head.indexOf('Precio promoción (CLP)') + 1;
    const first = head.indexOf('Primer día') + 1;
    for (let r = 2; r <= Math.min(drill.ws.rowCount, 40); r++) {
      const v = drill.ws.getRow(r).getCell(promo).value;
      if (v !== null) expect(Number.isInteger(v), `row ${r}: ${v}`).toBe(true);
      expect(drill.ws.getRow(r).getCell(first).value).toBeInstanceOf(Date);
    }
    // the dialog's first price is the file's first price, as on screen
    const shown = (await dialog.locator('tbody tr').first().locator('td').nth(4).innerText()).replace(
      /\D/g,
      '',
    );
    expect(String(drill.ws.getRow(2).getCell(promo).value)).toBe(shown);
  });

  test('Surtido and Cambio de disponibilidad: Spanish names, values with their currency, dates as dates', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/assortment-by-brand');
    const main = page.getByRole('main');
    await expect(main.locator('table tbody tr').first()).toBeVisible({ timeout: 20_000 });
    const brand = await download(page, () =>
      main.getByRole('button', { name: 'Descargar XLSX' }).first().click(),
    );
    expect(brand.name).toMatch(/^surtido_por_marca_.*\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const head = headerOf(brand.ws);
    expect(head).toContain('Valor total (CLP)');
    expect(head).toContain('Valor promedio (CLP)');
    const avg = head.indexOf('Valor promedio (CLP)') + 1;
    expect(Number.isInteger(brand.ws.getRow(2).getCell(avg).value)).toBe(true);
  });

  test('Verificación de imágenes: the comparison day is a date cell, the name says screen and day', async ({
    page,
  }) => {
    await login(page);
    const items = page.waitForResponse((r) => r.url().includes('/v1/image-verification/items') && r.ok());
    await page.goto('/app/image-verification');
    const answer = (await (await items).json()) as { comparisonDate: string | null };
    const file = await download(page, () => page.getByRole('button', { name: 'Descargar XLSX' }).click());
    // the screen, its filters (the sellers it sends) and the comparison day
    expect(file.name).toMatch(
      new RegExp(`^verificacion_de_imagenes_([A-Za-z0-9_+-]+_)?${answer.comparisonDate}\\.xlsx$`),
    );
    expect(file.ws.getCell('A2').value).toEqual(new Date(`${answer.comparisonDate}T00:00:00Z`));
  });
});

test('item 10: availability bars in the position palette, told apart by a hatch and a key in words', async ({
  page,
}) => {
  await login(page);
  await page.goto('/app/assortment-by-stock');
  const card = page.locator('.MuiPaper-root', {
    has: page.getByText('Cambios de disponibilidad en el período'),
  });
  await expect(card.getByTestId('stock-chart-key')).toHaveText(
    'Barras rayadas: salieron de stock · barras lisas: volvieron a stock.',
  );
  const canvas = card.locator('canvas');
  await expect(canvas).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(1000); // the bars' animation
  // the picture itself: vermillion / blue of the position palette present, no pure red or green bars
  const colours = await canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d');
    if (!ctx) return { vermillion: 0, blue: 0, red: 0, green: 0 };
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const out = { vermillion: 0, blue: 0, red: 0, green: 0 };
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if (Math.abs(r - 0xd5) < 12 && Math.abs(g - 0x5e) < 12 && b < 20) out.vermillion++;
      if (r < 12 && Math.abs(g - 0x72) < 12 && Math.abs(b - 0xb2) < 12) out.blue++;
      if (Math.abs(r - 0xc6) < 8 && Math.abs(g - 0x28) < 8 && Math.abs(b - 0x28) < 8) out.red++;
      if (Math.abs(r - 0x2e) < 8 && Math.abs(g - 0x7d) < 8 && Math.abs(b - 0x32) < 8) out.green++;
    }
    return out;
  });
  expect(colours.vermillion).toBeGreaterThan(20);
  expect(colours.blue).toBeGreaterThan(20);
  expect(colours.red + colours.green).toBe(0);
  // the docs' picture is refreshed on request only (E2E_DOC_IMAGES=1): a plain run leaves the tree clean
  if (process.env.E2E_DOC_IMAGES === '1')
    await card.screenshot({ path: '../docs/img/walk2-item10-stock-chart-after.png' });
});

test.describe('item 12: the small things', () => {
  test('assortment variations with one decimal; the comparator says what its band is', async ({ page }) => {
    await login(page);
    await page.goto('/app/assortment-by-brand');
    const body = page.getByRole('main').locator('table tbody');
    // the answer's rows, not the loading row (its cells are dots)
    await expect(body).toContainText('%', { timeout: 20_000 });
    const text = await body.innerText();
    expect(text).not.toMatch(/\d,\d{3}%/);
    expect(text).toMatch(/[+-]\d+(\.\d{3})*,\d%|\b0%/);
    await page.goto('/app/brand-price-comparator');
    const line = page.getByText(/^Índice al /);
    await expect(line).toContainText(
      /en rango de mercado: índice de 100 a \d+, hasta \+\d+% sobre el mercado/,
      {
        timeout: 20_000,
      },
    );
    await expect(line).not.toContainText('±');
  });

  test('"Clasificaciones: campo requerido" clears once one is picked; empty pickers read "Todos"', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/promotions-by-day?currency=CLP');
    const field = page.getByRole('combobox', { name: 'Clasificaciones' });
    await expect(page.getByText('Clasificaciones: campo requerido')).toBeVisible({ timeout: 20_000 });
    await field.click();
    await page.getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await expect(page.getByText('Clasificaciones: campo requerido')).toHaveCount(0);

    await page.goto('/app/notifications-subscriptions');
    const pickers = page.getByRole('combobox', { name: 'eCommerce' });
    await expect(pickers.first()).toBeVisible({ timeout: 20_000 });
    await expect(pickers.first()).toHaveAttribute('placeholder', 'Todos');
  });

  test('a report at 0 % shows an empty bar', async ({ page }) => {
    await login(page);
    // the task list as the server would send it for a report still waiting (progress 0)
    await page.route('**/v1/navigation-reports/', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const res = await route.fetch();
      const json = (await res.json()) as { items: Record<string, unknown>[] };
      const now = new Date().toISOString();
      json.items.unshift({
        id: '00000000-0000-4000-8000-000000000000',
        report_type: 'match',
        format: 'xlsx',
        from_date: now.slice(0, 10),
        to_date: now.slice(0, 10),
        currency: 'CLP',
        pivot_id: 116,
        sellers: [],
        status: 'queued',
        progress: 0,
        rows_done: 0,
        rows_total: null,
        file_name: null,
        size_bytes: null,
        error: null,
        created_at: now,
        finished_at: null,
        gs_url: null,
        expires_at: null,
        scheduled: false,
      });
      await route.fulfill({ response: res, json });
    });
    await page.goto('/app/reports');
    const bar = page.getByTestId('report-progress').first();
    await expect(bar).toBeVisible({ timeout: 20_000 });
    await expect(bar).toHaveAttribute('aria-valuenow', '0');
    const transform = await bar
      .locator('.MuiLinearProgress-bar')
      .first()
      .evaluate((el) => getComputedStyle(el).transform);
    // translateX(-100%): the bar wholly outside its track
    const m = /matrix\(1, 0, 0, 1, (-?[\d.]+), 0\)/.exec(transform);
    const width = await bar.evaluate((el) => el.getBoundingClientRect().width);
    expect(m, transform).not.toBeNull();
    expect(Number(m?.[1])).toBeCloseTo(-width, 0);
  });

  test('"Enviar ahora" queues one send of a subscription, then says when it can again', async ({ page }) => {
    await login(page);
    await page.goto('/app/reports');
    await page.getByRole('button', { name: 'Suscribir correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Suscribir correo' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expectSnackbar(page, 'Suscripción guardada');
    const row = page
      .getByTestId('subscription')
      .filter({ hasText: DEMO.email })
      .filter({ has: page.getByRole('cell', { name: 'Match', exact: true }) });
    const send = row.getByRole('button', { name: /^Enviar ahora/ });
    const db = e2eDb();
    const before = await db.query<{ n: number; id: number }>(
      `select s.id, (select count(*) from report_deliveries d where d.subscription_id = s.id)::int as n
         from report_subscriptions s where lower(s.email) = $1 and s.report_type = 'match'`,
      [DEMO.email],
    );
    expect(before.rows.length).toBe(1);
    const recent = await db.query<{ recent: boolean }>(
      `select exists (select 1 from report_deliveries where subscription_id = $1
                       and created_at > now() - interval '5 minutes') as recent`,
      [before.rows[0].id],
    );
    await send.click();
    if (recent.rows[0].recent) {
      // a rerun within five minutes: the limit answers, and nothing is queued
      await expectSnackbar(page, /se envió hace menos de 5 minutos/);
      const after = await db.query<{ n: number }>(
        'select count(*)::int as n from report_deliveries where subscription_id = $1',
        [before.rows[0].id],
      );
      expect(after.rows[0].n).toBe(before.rows[0].n);
      return;
    }
    await expectSnackbar(page, 'Envío en preparación');
    const after = await db.query<{ n: number; task: string | null }>(
      `select count(*)::int as n, (array_agg(task_id::text order by created_at desc))[1] as task
         from report_deliveries where subscription_id = $1`,
      [before.rows[0].id],
    );
    expect(after.rows[0].n).toBe(before.rows[0].n + 1);
    expect(after.rows[0].task).not.toBeNull();
    // a second click within five minutes: refused with when, nothing more queued
    await send.click();
    await expectSnackbar(page, /se envió hace menos de 5 minutos/);
    const again = await db.query<{ n: number }>(
      'select count(*)::int as n from report_deliveries where subscription_id = $1',
      [before.rows[0].id],
    );
    expect(again.rows[0].n).toBe(before.rows[0].n + 1);
  });
});
