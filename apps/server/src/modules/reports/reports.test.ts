import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ExporterServerEvents,
  isoDateInZone,
  pricingItemsResponse,
  reportTasksResponse,
} from '@vigia/domain';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForJob } from '../../platform/jobs/queue.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/mail.js';
import {
  attachmentsOf,
  csvNumber,
  type ReportsFixture,
  readCsv,
  readXlsx,
  reportsToken,
  seedReportsFixture,
} from '../../test/reports-fixture.js';
import { setBuildLimits } from './build-pool.js';
import { signFileLink } from './signing.js';
import { dispatchDueSubscriptions } from './subscriptions.js';
import { deleteExpiredReportFiles } from './tasks.js';

// Reports and subscriptions over the hand-computed pricing market (test/pricing-fixture.ts): files read
// back and compared with hand-worked numbers and with the DPM API for the same selection; signed links;
// the exporter channel with real socket.io clients; subscription e-mail through a real SMTP server.

let ctx: TestContext;
let fx: ReportsFixture;
let smtp: TestSmtpServer;
let base: string;
let ana: string;
let beto: string;
let other: string;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedReportsFixture(db.pool);
    },
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://vigia.test' },
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  ana = reportsToken(ctx.config.JWT_SECRET, fx.rep.ana, fx.rep.org);
  beto = reportsToken(ctx.config.JWT_SECRET, fx.rep.beto, fx.rep.org);
  other = reportsToken(ctx.config.JWT_SECRET, fx.rep.other, fx.rep.otherOrg);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const auth = (token: string) => ({ authorization: `JWT ${token}` });
async function call(method: 'GET' | 'POST', url: string, token: string | null, payload?: object) {
  const res = await ctx.app.inject({
    method,
    url,
    headers: token ? auth(token) : {},
    ...(payload ? { payload } : {}),
  });
  return res;
}

const fromDay = () => isoDateInZone(fx.t0);
const today = () => isoDateInZone(new Date());

async function waitTask(id: string, token = ana, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', '/v1/navigation-reports/', token);
    const task = reportTasksResponse.parse(res.json()).items.find((t) => t.id === id);
    if (task && (task.status === 'succeeded' || task.status === 'failed')) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task?.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function buildAndDownload(body: object, token = ana) {
  const res = await call('POST', '/v1/navigation-reports/', token, body);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitTask(res.json().id, token);
  expect(task.status, task.error ?? '').toBe('succeeded');
  const signed = await call('POST', '/v1/navigation-reports/sign-report/', token, { gs_url: task.gs_url });
  expect(signed.statusCode, signed.body).toBe(200);
  const file = await call('GET', signed.json().url, null); // the signed link needs no session
  expect(file.statusCode).toBe(200);
  return { task, file: file.rawPayload, headers: file.headers, url: signed.json().url as string };
}

// Hand-worked (docs/metrics.md "Worked example"; window from T0's day to today, competitors 7, 8, 9, CLP):
//  P1 my 1000 · A 1000 · B min(1100, 950) = 950 · Perú 4 PEN × 260 = 1040 → min 950, max 1040,
//     index 100 × 1000 / 950 = 105.26, position 1 + |{950}| = 2, ranked 3 + 1 = 4
//  P2 my 850 (sale) · A 900 · B out of stock (not comparable) → index 94.44, position 1, ranked 2
//  P3 my 400 (exclusive) · A 450 → 88.89, position 1, ranked 2
//  P4 my 10000 (pivot out of stock: still my price) · A 9000 · B 9500 → 111.11, position 3, ranked 3
//  P6 my 800 · B 780 (seen at T0 only, inside the window) → 102.56, position 2, ranked 2
//  P5 has no match: not in the report.
const EXPECTED = [
  {
    sku: 'SKU-001',
    my: 1000,
    min: 950,
    max: 1040,
    index: 105.26,
    position: 2,
    ranked: 4,
    a: 1000,
    b: 950,
    pe: 1040,
  },
  {
    sku: 'SKU-002',
    my: 850,
    min: 900,
    max: 900,
    index: 94.44,
    position: 1,
    ranked: 2,
    a: 900,
    b: null,
    pe: null,
  },
  {
    sku: 'SKU-003',
    my: 400,
    min: 450,
    max: 450,
    index: 88.89,
    position: 1,
    ranked: 2,
    a: 450,
    b: null,
    pe: null,
  },
  {
    sku: 'SKU-004',
    my: 10000,
    min: 9000,
    max: 9500,
    index: 111.11,
    position: 3,
    ranked: 3,
    a: 9000,
    b: 9500,
    pe: null,
  },
  {
    sku: 'SKU-006',
    my: 800,
    min: 780,
    max: 780,
    index: 102.56,
    position: 2,
    ranked: 2,
    a: null,
    b: 780,
    pe: null,
  },
];
const MATCH_HEADER = [
  'SKU',
  'ID eCommerce',
  'EAN',
  'Producto',
  'Marca',
  'Clasificación',
  'Mi precio (CLP)',
  'Tipo de precio',
  'Sin stock',
  // every price column names its currency (issue 31 item 9)
  'Precio mínimo competencia (CLP)',
  'Precio máximo competencia (CLP)',
  'Diferencia (CLP)',
  'Diferencia (%)',
  'Índice de precios',
  'Posición',
  'eCommerce comparados',
  'Rival A (CLP)',
  'Rival B (CLP)',
  'Rival Perú (CLP)',
];

describe('match report', () => {
  const body = () => ({
    report_type: 'match',
    from_date: fromDay(),
    to_date: today(),
    sellers: [7, 8, 9],
    currency: 'CLP',
  });

  it('XLSX: Spanish headers, number cells, the hand-worked numbers and the DPM API numbers', async () => {
    const { task, file, headers } = await buildAndDownload({ ...body(), format: 'xlsx' });
    expect(headers['content-type']).toMatch(/spreadsheetml/);
    expect(headers['content-disposition']).toContain(`vigia_match_${fromDay()}_${today()}.xlsx`);
    expect(task).toMatchObject({
      rows_done: 5,
      rows_total: 5,
      progress: 1,
      format: 'xlsx',
      report_type: 'match',
    });
    const rows = await readXlsx(file);
    expect(rows[0]).toEqual(MATCH_HEADER);
    const got = rows.slice(1).map((r) => ({
      sku: r[0],
      my: r[6],
      min: r[9],
      max: r[10],
      index: r[13],
      position: r[14],
      ranked: r[15],
      a: r[16],
      b: r[17],
      pe: r[18],
    }));
    expect(got).toEqual(EXPECTED);
    expect(rows[1][7]).toBe('Normal');
    expect(rows[4][8]).toBe('Sí'); // P4 out of stock
    expect(rows[1][11]).toBe(50); // difference 1000 − 950
    expect(rows[1][12]).toBe(5.26); // difference % = index − 100

    // the DPM API's numbers for the same selection (matched pivot products, same window and competitors)
    const api = await call(
      'GET',
      `/v2/navigation/dpm/items?from_date=${fromDay()}&to_date=${today()}&sellers=7,8,9&currency=CLP&match=true&page_size=50&pivot_id=5`,
      ana,
    );
    expect(api.statusCode, api.body).toBe(200);
    const items = pricingItemsResponse.parse(api.json()).items;
    expect(items.map((i) => i.sku).sort()).toEqual(EXPECTED.map((e) => e.sku));
    for (const it of items) {
      const row = got.find((g) => g.sku === it.sku)!;
      expect(
        { my: row.my, min: row.min, max: row.max, index: row.index, position: row.position },
        it.sku!,
      ).toEqual({
        my: it.my_price,
        min: it.min_price,
        max: it.max_price,
        index: it.index,
        position: it.position,
      });
    }
  });

  it('CSV: BOM, ";" separator, "," decimals, quoted texts — same numbers', async () => {
    const { file, headers } = await buildAndDownload({ ...body(), format: 'csv' });
    expect(headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = readCsv(file);
    expect(rows[0]).toEqual(MATCH_HEADER);
    expect(
      rows.slice(1).map((r) => [r[0], csvNumber(r[6]), csvNumber(r[13]), csvNumber(r[14]), csvNumber(r[18])]),
    ).toEqual(EXPECTED.map((e) => [e.sku, e.my, e.index, e.position, e.pe]));
    expect(file.toString('utf8')).toContain(';105,26;');
  });

  it('in USD converts every price with the rate of to_date (900 CLP)', async () => {
    const { file } = await buildAndDownload({ ...body(), currency: 'USD', format: 'csv' });
    const rows = readCsv(file);
    expect(rows[0][6]).toBe('Mi precio (USD)');
    // P1: 1000 / 900 = 1.11; B 950 / 900 = 1.06; the index does not change
    expect([csvNumber(rows[1][6]), csvNumber(rows[1][9]), csvNumber(rows[1][13])]).toEqual([
      1.11, 1.06, 105.26,
    ]);
  });

  it('refuses sellers, pivots and currencies outside the license (403) and bad ranges (400)', async () => {
    expect(
      (await call('POST', '/v1/navigation-reports/', ana, { ...body(), sellers: [10] })).statusCode,
    ).toBe(403);
    expect((await call('POST', '/v1/navigation-reports/', ana, { ...body(), pivot_id: 7 })).statusCode).toBe(
      403,
    );
    expect(
      (await call('POST', '/v1/navigation-reports/', ana, { ...body(), currency: 'PEN' })).statusCode,
    ).toBe(403);
    const bad = await call('POST', '/v1/navigation-reports/', ana, {
      ...body(),
      from_date: today(),
      to_date: fromDay(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('to_date');
  });

  it('records a failed build with its reason (no exchange rate for MXN)', async () => {
    const res = await call('POST', '/v1/navigation-reports/', ana, { ...body(), currency: 'MXN' });
    expect(res.statusCode).toBe(200);
    const task = await waitTask(res.json().id);
    expect(task.status).toBe('failed');
    expect(task.error).toBe(
      `No fue posible generar el reporte: no hay tipo de cambio para MXN al ${today()}`,
    );
    expect(task.gs_url).toBeNull();
    // the owner is told in the app (notifications, namespace reports; the listener runs after the outcome)
    await expect
      .poll(async () => {
        const list = await call('GET', '/v1/notifications/?namespace=reports', ana);
        return (list.json() as { results: { kind: string; body: string }[] }).results.map((n) => n.kind);
      })
      .toContain('report_failed');
    const list = await call('GET', '/v1/notifications/?namespace=reports', ana);
    const failed = (list.json() as { results: { kind: string; body: string }[] }).results.find(
      (n) => n.kind === 'report_failed',
    );
    expect(failed?.body).toBe(
      `Tu reporte Match falló. No fue posible generar el reporte: no hay tipo de cambio para MXN al ${today()}.`,
    );
  });
  it('a build past its memory cap fails with a Spanish reason, leaves no file, and the server goes on', async () => {
    // builds run in a worker thread with a capped heap (build-pool.ts): a tiny cap ends the thread with
    // ERR_WORKER_OUT_OF_MEMORY, which must fail the task, not the server
    setBuildLimits({ heapMb: 4, youngMb: 1 });
    let id: string;
    try {
      const res = await call('POST', '/v1/navigation-reports/', ana, body());
      expect(res.statusCode).toBe(200);
      id = res.json().id;
      const task = await waitTask(id);
      expect(task.status).toBe('failed');
      expect(task.error).toBe(
        'No fue posible generar el reporte: el reporte necesita más memoria de la disponible para generarlo (4 MB); pida un rango de fechas más corto o menos eCommerce',
      );
      expect(task.gs_url).toBeNull();
    } finally {
      setBuildLimits();
    }
    const dir = join(ctx.config.DATA_DIR, 'reports', String(fx.rep.ana));
    const files = existsSync(dir) ? readdirSync(dir) : [];
    expect(files.filter((f) => f.startsWith(id))).toEqual([]);
    expect((await call('GET', '/health', null)).statusCode).toBe(200);
    // the next build, with the default cap, succeeds
    const { task } = await buildAndDownload(body());
    expect(task.rows_total).toBeGreaterThan(0);
  });
});

describe('other report types', () => {
  it('prices: one row per price interval overlapping the range, converted', async () => {
    const { file } = await buildAndDownload({
      report_type: 'prices',
      format: 'csv',
      from_date: fromDay(),
      to_date: today(),
      sellers: [9],
    });
    const rows = readCsv(file);
    expect(rows[0].slice(0, 9)).toEqual([
      'eCommerce',
      'ID eCommerce',
      'SKU',
      'EAN',
      'Producto',
      'Marca',
      'Desde',
      'Hasta',
      'Precio normal (CLP)',
    ]);
    // every amount column names its currency (issue 25)
    expect(rows[0].slice(9, 13)).toEqual([
      'Precio oferta (CLP)',
      'Precio exclusivo (CLP)',
      'Precio por cantidad (CLP)',
      'Precio efectivo (CLP)',
    ]);
    // pivot: 6 listings with one interval each; Perú: pe1 (4 PEN × 260 = 1040)
    expect(rows.length - 1).toBe(7);
    const peru = rows.find((r) => r[0] === 'Rival Perú')!;
    expect(csvNumber(peru[8])).toBe(1040);
    expect(peru[12]).toBe('1040');
  });

  it('promotions and assortment build from their read models', async () => {
    const promo = await buildAndDownload({
      report_type: 'promotions',
      format: 'xlsx',
      from_date: fromDay(),
      to_date: today(),
    });
    const promoRows = await readXlsx(promo.file);
    expect(promoRows[0][6]).toBe('Formato');
    expect(promoRows[0]).toContain('Precio normal (CLP)');
    expect(promoRows[0]).toContain('Precio promoción (CLP)');
    // P2 (sale 850) and P3 (exclusive 400) are on promotion at the pivot; B1 (sale 950) at Rival B
    expect(
      promoRows
        .slice(1)
        .map((r) => `${r[0]}:${r[2] ?? r[1]}:${r[6]}`)
        .sort(),
    ).toEqual(['Pivote:SKU-002:Oferta', 'Pivote:SKU-003:Oferta exclusiva', 'Rival B:b1:Oferta'].sort());
    const assort = await buildAndDownload({
      report_type: 'assortment',
      format: 'csv',
      from_date: fromDay(),
      to_date: today(),
    });
    const rows = readCsv(assort.file);
    expect(rows[0][3]).toBe('Productos publicados');
    expect(rows[0].slice(5, 7)).toEqual(['Valor total (CLP)', 'Precio promedio (CLP)']);
    // the pivot carries 6 listings: Colun 3, Omo 2, Soprole 1 (participation 50 / 33.33 / 16.67 %);
    // values (effective prices): Colun P1 1000 + P2 850 (sale) + P6 800 = 2650, average 883.33; Omo
    // 10000 + 5000 = 15000, 7500; Soprole P3 400 (exclusive)
    const pivot = rows.filter((r) => r[0] === 'Pivote').map((r) => [r[1], r[3], r[5], r[6], r[7]]);
    expect(pivot).toEqual([
      ['Colun', '3', '2650', '883,33', '50'],
      ['Omo', '2', '15000', '7500', '33,33'],
      ['Soprole', '1', '400', '400', '16,67'],
    ]);
    // Perú (PEN): e1 at 4 PEN × 260 CLP = 1040
    expect(rows.filter((r) => r[0] === 'Rival Perú').map((r) => [r[3], r[5], r[6]])).toEqual([
      ['1', '1040', '1040'],
    ]);
  });
});

describe('signed links', () => {
  it('a tampered, expired or foreign link is refused (403 / 410)', async () => {
    const { task, url } = await buildAndDownload({
      report_type: 'match',
      format: 'csv',
      from_date: today(),
      to_date: today(),
    });
    const token = url.split('/').pop()!;
    const parts = token.split('.');
    const mac = parts[3];
    const flipped = [...parts.slice(0, 3), `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`].join(
      '.',
    );
    expect((await call('GET', `/v1/navigation-reports/files/${flipped}`, null)).statusCode).toBe(403);
    // another owner or a later expiry with the same MAC
    const forged = [parts[0], String(fx.rep.other), parts[2], mac].join('.');
    expect((await call('GET', `/v1/navigation-reports/files/${forged}`, null)).statusCode).toBe(403);
    const later = [parts[0], parts[1], String(Number(parts[2]) + 3600), mac].join('.');
    expect((await call('GET', `/v1/navigation-reports/files/${later}`, null)).statusCode).toBe(403);
    // correctly signed, but for another user than the task's owner
    const foreign = signFileLink(ctx.config.JWT_SECRET, { t: task.id, u: fx.rep.beto, e: 4e9 });
    expect((await call('GET', `/v1/navigation-reports/files/${foreign}`, null)).statusCode).toBe(403);
    // correctly signed, expired a second ago
    const expired = signFileLink(ctx.config.JWT_SECRET, {
      t: task.id,
      u: fx.rep.ana,
      e: Math.floor(Date.now() / 1000) - 1,
    });
    const res = await call('GET', `/v1/navigation-reports/files/${expired}`, null);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('gone');
    // signed with another key (another installation)
    const alien = signFileLink('z'.repeat(64), { t: task.id, u: fx.rep.ana, e: 4e9 });
    expect((await call('GET', `/v1/navigation-reports/files/${alien}`, null)).statusCode).toBe(403);
    // signing another user's report: 403, even in the same organisation
    const sign = await call('POST', '/v1/navigation-reports/sign-report/', beto, { gs_url: task.gs_url });
    expect(sign.statusCode).toBe(403);
    expect(
      (await call('POST', '/v1/navigation-reports/sign-report/', ana, { gs_url: 'gs://x/../y' })).statusCode,
    ).toBe(400);
    // the task list is per user
    const list = reportTasksResponse.parse((await call('GET', '/v1/navigation-reports/', beto)).json());
    expect(list.items.find((t) => t.id === task.id)).toBeUndefined();
  });

  it('expired files are deleted; their link then answers 410', async () => {
    const { task, url } = await buildAndDownload({
      report_type: 'match',
      format: 'xlsx',
      from_date: today(),
      to_date: today(),
    });
    expect(
      await deleteExpiredReportFiles(ctx.db.pool, new Date(Date.now() + 8 * 86_400_000)),
    ).toBeGreaterThan(0);
    expect((await call('GET', url, null)).statusCode).toBe(410);
    const sign = await call('POST', '/v1/navigation-reports/sign-report/', ana, {
      gs_url: `reports/${task.id}`,
    });
    expect(sign.statusCode).toBe(410);
  });
});

describe('exporter channel', () => {
  type Client = Socket<ExporterServerEvents>;
  const open = (token: string) =>
    new Promise<Client>((resolve, reject) => {
      const s: Client = connect(base, {
        query: { token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });

  it("pushes created / progress / done of a task to its owner only, not to another user's sockets", async () => {
    const mine = await open(ana);
    const theirs = await open(beto);
    const got: string[] = [];
    const leaked: string[] = [];
    for (const ev of ['task:created', 'task:progress', 'task:done', 'task:failed'] as const) {
      mine.on(ev, (p) => got.push(`${ev}:${p.id}:${p.status}`));
      theirs.on(ev, (p) => leaked.push(`${ev}:${p.id}`));
    }
    const done = new Promise<ExporterServerEvents['task:done'] extends (p: infer P) => void ? P : never>(
      (resolve) => mine.once('task:done', resolve),
    );
    const res = await call('POST', '/v1/navigation-reports/', ana, {
      report_type: 'match',
      format: 'csv',
      from_date: fromDay(),
      to_date: today(),
    });
    const id = res.json().id;
    const final = await done;
    expect(final).toMatchObject({ id, status: 'succeeded', progress: 1, rows_done: 5, rows_total: 5 });
    expect(final.size_bytes).toBeGreaterThan(100);
    await new Promise((r) => setTimeout(r, 150));
    expect(got[0]).toBe(`task:created:${id}:queued`);
    expect(got).toContain(`task:progress:${id}:running`);
    expect(got.at(-1)).toBe(`task:done:${id}:succeeded`);
    expect(leaked).toEqual([]);
    mine.disconnect();
    theirs.disconnect();
  });
});

describe('subscriptions', () => {
  it('an address outside the organisation is refused; the list is the organisation’s', async () => {
    const res = await call('POST', '/v1/subscriptions/', ana, {
      report_type: 'match',
      email: 'otro@otra.cl',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('email_not_in_organisation');
    const mine = await call('POST', '/v1/subscriptions/', ana, {
      report_type: 'prices',
      email: 'beto@reportes.cl',
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect((await call('GET', '/v1/subscriptions/?email=beto@reportes.cl', beto)).json().items).toHaveLength(
      1,
    );
    expect((await call('GET', '/v1/subscriptions/', other)).json().items).toEqual([]);
    const out = await call('POST', '/v1/subscriptions/unsubscribe', other, {
      report_type: 'prices',
      email: 'beto@reportes.cl',
    });
    expect(out.statusCode).toBe(404);
    const gone = await call('POST', '/v1/subscriptions/unsubscribe', beto, {
      report_type: 'prices',
      email: 'beto@reportes.cl',
    });
    expect(gone.statusCode).toBe(200);
    expect((await call('GET', '/v1/subscriptions/?email=beto@reportes.cl', beto)).json().items).toEqual([]);
  });

  it('sends the report at the local hour with the file attached, records it, and unsubscribes in one click', async () => {
    // Beto lives in Lima (UTC−5 all year): weekly on wednesdays at 07:00 local = 12:00 UTC
    const res = await call('POST', '/v1/subscriptions/', ana, {
      report_type: 'match',
      email: 'Beto@Reportes.cl',
      frequency: 'weekly',
      weekday: 3,
      hour: 7,
      format: 'xlsx',
    });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().item;
    expect(item).toMatchObject({
      email: 'beto@reportes.cl',
      timezone: 'America/Lima',
      frequency: 'weekly',
      hour: 7,
    });
    const next = new Date(item.next_run_at);
    expect(next.getUTCDay()).toBe(3);
    expect(next.getUTCHours()).toBe(12);
    expect(next.getUTCMinutes()).toBe(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);

    // nothing is due yet; at its time one task is created and the next run moves a week on
    expect(await dispatchDueSubscriptions(ctx.db.pool, ctx.config, new Date(next.getTime() - 1000))).toEqual(
      [],
    );
    const [taskId] = await dispatchDueSubscriptions(ctx.db.pool, ctx.config, next);
    expect(taskId).toBeTruthy();
    const task = await waitTask(taskId, ana);
    expect(task).toMatchObject({ status: 'succeeded', scheduled: true });
    // weekly: the 7 days ending on the day of the send in the organisation's market zone (Santiago, the
    // default), at the recipient's hour (Lima)
    expect(task.to_date).toBe(isoDateInZone(next, 'America/Santiago'));

    await smtp.waitFor(1);
    const mail = smtp.received.find((m) => m.subject.startsWith('Vigía — reporte Match'))!;
    expect(mail.envelope.to).toEqual(['beto@reportes.cl']);
    expect(mail.subject).toMatch(/^Vigía — reporte Match \(/);
    const [attachment] = attachmentsOf(mail.raw);
    expect(attachment.filename).toMatch(/^vigia_match_.*\.xlsx$/);
    // the week ending on the send's day (in the future here, so the fixture has no rows in it): the header
    const rows = await readXlsx(attachment.content);
    expect(rows[0]).toEqual(MATCH_HEADER);

    const list = (await call('GET', '/v1/subscriptions/?email=beto@reportes.cl', ana)).json().items;
    expect(list[0].last_delivery).toMatchObject({ status: 'sent', attempts: 1, as_link: false, error: null });
    expect(new Date(list[0].next_run_at).getTime()).toBe(next.getTime() + 7 * 86_400_000);

    // the one-click link works without a session and only for its own subscription
    // (text and html sit in a multipart/alternative inside the multipart/mixed: read the raw message,
    // quoted-printable soft line breaks removed; the link's characters need no encoding)
    const link = /(http:\/\/vigia\.test\/v1\/subscriptions\/unsubscribe\/[\w.-]+)/.exec(
      mail.raw.replace(/=\r?\n/g, ''),
    )![1];
    const path = link.replace('http://vigia.test', '');
    const tampered = await call('GET', `${path.slice(0, -3)}xyz`, null);
    expect(tampered.statusCode).toBe(403);
    const page = await call('GET', path, null);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Suscripción cancelada');
    expect((await call('GET', '/v1/subscriptions/?email=beto@reportes.cl', ana)).json().items).toEqual([]);
  }, 40_000);

  it('a refused send is retried with back-off, and the screen sees it', async () => {
    const res = await call('POST', '/v1/subscriptions/', ana, {
      report_type: 'assortment',
      email: 'ana@reportes.cl',
      format: 'csv',
    });
    expect(res.statusCode).toBe(200);
    smtp.failNext(1);
    const before = smtp.received.length; // the match e-mail of the test above is in
    const [taskId] = await dispatchDueSubscriptions(
      ctx.db.pool,
      ctx.config,
      new Date(res.json().item.next_run_at),
    );
    await waitTask(taskId);
    const jobOf = async () =>
      (
        await ctx.db.pool.query<{ email_job_id: string | null }>(
          'select email_job_id from report_deliveries where task_id = $1',
          [taskId],
        )
      ).rows;
    let rows = await jobOf();
    while (!rows[0].email_job_id) {
      await new Promise((r) => setTimeout(r, 20));
      rows = await jobOf();
    }
    await waitForJob(ctx.db.pool, rows[0].email_job_id, {
      until: (j) => j.attempts >= 1 && j.status === 'queued',
    });
    const retrying = (await call('GET', '/v1/subscriptions/?email=ana@reportes.cl', ana)).json().items[0]
      .last_delivery;
    expect(retrying.status).toBe('retrying');
    expect(retrying.attempts).toBe(1);
    expect(retrying.error).toMatch(/451/);
    expect(new Date(retrying.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    // the second attempt (after the back-off) goes through
    expect((await waitForJob(ctx.db.pool, rows[0].email_job_id, { timeoutMs: 20_000 })).status).toBe(
      'succeeded',
    );
    await smtp.waitFor(before + 1);
    const sent = (await call('GET', '/v1/subscriptions/?email=ana@reportes.cl', ana)).json().items[0]
      .last_delivery;
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
  }, 40_000);
});
