import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { imageCheckDetail, imageItemsResponse, imageKpis } from '@vigia/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../lib/redact.js';
import { forgetKnownPictures, pictureUrl } from '../../platform/media/index.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import {
  type ImageFixture,
  IV_DAY,
  IV_KEYS,
  seedImageFixture,
} from '../../test/image-verification-fixture.js';
import { tokenOf } from '../../test/pricing-fixture.js';
import { backfillScores, scorePending } from './score-job.js';

// API tests of image verification over the fixture (test/image-verification-fixture.ts): the checks come
// from the ingest roll-up, the similarities from the scoring job run here on the real pictures.

let ctx: TestContext;
let fx: ImageFixture;
let analyst: string;
let noModule: string;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedImageFixture(db.pool);
    },
  });
  analyst = tokenOf(ctx.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
  noModule = tokenOf(ctx.config.JWT_SECRET, fx.users.noModule, fx.users.orgNoModule);
  await backfillScores(ctx.db.pool);
  const run = await scorePending(ctx.db.pool, ctx.config.DATA_DIR, silent, 120_000);
  expect(run).toMatchObject({ failed: 0, more: false });
  await allMeasured();
}, 180_000);

/** The app's own job worker may be measuring some pairs (SKIP LOCKED): waits until every check has its measure. */
async function allMeasured() {
  for (let i = 0; i < 300; i++) {
    const { rows } = await ctx.db.pool.query(
      'select count(*)::int as n from image_checks where similarity is null',
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('checks not measured');
}
afterAll(() => ctx?.close());

describe('change signal', () => {
  it("measured checks bump their sellers' 'images' version", async () => {
    const { rows } = await ctx.db.pool.query<{ ok: boolean }>(
      `select bool_and(d.version > 0) and count(d.seller_id) = count(*) as ok
         from (select distinct p.seller_id from image_checks c join products p on p.id = c.product_id) s
         left join data_changes d on d.seller_id = s.seller_id and d.scope = 'images'`,
    );
    expect(rows[0].ok).toBe(true);
  });
});

async function get(url: string, token: string | null = analyst) {
  const res = await ctx.app.inject({
    method: 'GET',
    url,
    headers: token ? { authorization: `JWT ${token}` } : {},
  });
  return {
    status: res.statusCode,
    body: res.headers['content-type']?.includes('json') ? res.json() : null,
    res,
  };
}

describe('checks from ingest and the scoring job', () => {
  it('creates one check per listing with a reference on the run day, measured from the pixels', async () => {
    const { rows } = await ctx.db.pool.query(
      `select p.product_id, vigia_day(c.checked_at, 'America/Santiago')::text as day, c.similarity from image_checks c
         join products p on p.id = c.product_id order by p.product_id`,
    );
    expect(rows.map((r) => r.product_id)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c1', 'c2']);
    expect(rows.every((r) => r.day === IV_DAY && r.similarity !== null)).toBe(true);
    const { rows: s } = await ctx.db.pool.query(
      'select count(*)::int as n from image_scores where similarity is null',
    );
    expect(s[0].n).toBe(0);
  });

  it('a changed picture gets a check on its day and is queued; an unchanged one is not', async () => {
    await observe(
      ctx.db.pool,
      9,
      '2026-05-11T14:00:00Z',
      [
        {
          productId: 'a2',
          sku: 'SKU-a2',
          ean: '7801234000017',
          name: 'Producto a2',
          brand: 'Polarix',
          url: 'https://www.example.cl/p/a2',
          imageUrl: pictureUrl(IV_KEYS.A, 'resized'),
          normalPrice: 990,
        },
      ],
      'partial',
    );
    const { rows } = await ctx.db.pool.query(
      `select c.image_url, c.similarity from image_checks c join products p on p.id = c.product_id
        where vigia_day(c.checked_at, 'America/Santiago') = '2026-05-11'`,
    );
    expect(rows).toEqual([{ image_url: pictureUrl(IV_KEYS.A, 'resized'), similarity: null }]);
    await scorePending(ctx.db.pool, ctx.config.DATA_DIR, silent, 60_000);
    await allMeasured();
    const after = await ctx.db.pool.query(
      `select similarity from image_checks where vigia_day(checked_at, 'America/Santiago') = '2026-05-11'`,
    );
    expect(after.rows[0].similarity).toBeGreaterThanOrEqual(0.975); // resized → correct
  }, 60_000);
});

describe('GET /v1/image-verification/kpis', () => {
  it('counts the classes of the licensed sellers on the comparison date', async () => {
    const { status, body } = await get(`/v1/image-verification/kpis?comparisonDate=${IV_DAY}`);
    expect(status).toBe(200);
    expect(imageKpis.parse(body)).toBeTruthy();
    // a1, a2 correct; b1, b2 for review; c1, c2 incorrect; a3 (seller 11) outside the license
    expect(body).toMatchObject({
      comparisonDate: IV_DAY,
      correct: 2,
      forReview: 2,
      incorrect: 2,
      pending: 0,
      total: 6,
    });
    expect(body).toMatchObject({ correctThreshold: 0.975, incorrectThreshold: 0.94 });
  });

  it('defaults to the latest comparison date and applies the filters', async () => {
    const { body } = await get('/v1/image-verification/kpis?sellersIds=9');
    expect(body).toMatchObject({ comparisonDate: '2026-05-11', total: 1, correct: 1 });
    const bySku = await get(`/v1/image-verification/kpis?comparisonDate=${IV_DAY}&skus=SKU-b1,c2`);
    expect(bySku.body).toMatchObject({ total: 2, forReview: 1, incorrect: 1 });
  });

  it('refuses sellers and pivots outside the license, and users without the module', async () => {
    expect((await get('/v1/image-verification/kpis?sellersIds=11')).status).toBe(403);
    expect((await get('/v1/image-verification/kpis?pivotId=9')).status).toBe(403);
    expect((await get('/v1/image-verification/kpis', noModule)).status).toBe(403);
    expect((await get('/v1/image-verification/kpis', null)).status).toBe(401);
  });

  it('answers 400 naming the field for bad input', async () => {
    for (const [q, field] of [
      ['comparisonDate=2026-02-30', 'comparisonDate'],
      ['correctThreshold=2', 'correctThreshold'],
      ['sellersIds=x', 'sellersIds'],
    ]) {
      const { status, body } = await get(`/v1/image-verification/kpis?${q}`);
      expect(status, q).toBe(400);
      expect(JSON.stringify(body)).toContain(field);
    }
  });
});

describe('GET /v1/image-verification/items', () => {
  it('lists the checks, least similar first, with the total', async () => {
    const { status, body } = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}`);
    expect(status).toBe(200);
    expect(imageItemsResponse.parse(body)).toBeTruthy();
    expect(body.total).toBe(6);
    const sims = body.items.map((i: { similarity: number }) => i.similarity);
    expect(sims).toEqual([...sims].sort((a, b) => a - b));
    expect(body.items.at(-1)).toMatchObject({
      sellerId: 7,
      sku: 'SKU-a1',
      similarity: 1,
      classification: 'correct',
    });
    expect(body.items[0].referenceUrl).toBe(pictureUrl(IV_KEYS.C));
  });

  it('pages (limit, skip) and filters by thresholds and class', async () => {
    const page = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}&limit=4&skip=4`);
    expect(page.body.total).toBe(6);
    expect(page.body.items).toHaveLength(2);
    const review = await get(
      `/v1/image-verification/items?comparisonDate=${IV_DAY}&lowerThreshold=0.94&upperThreshold=0.975`,
    );
    expect(review.body.items.map((i: { sku: string }) => i.sku).sort()).toEqual(['SKU-b1', 'SKU-b2']);
    const incorrect = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}&imageClass=incorrect`);
    expect(incorrect.body.total).toBe(2);
    expect((await get('/v1/image-verification/items?limit=0')).status).toBe(400);
  });
});

describe('dialog and review decision', () => {
  it('gives the measure and the difference map of a check', async () => {
    const list = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}&skus=SKU-b1`);
    const { status, body } = await get(`/v1/image-verification/check?id=${list.body.items[0].id}`);
    expect(status).toBe(200);
    expect(imageCheckDetail.parse(body)).toBeTruthy();
    expect(body.score.diffMap).toHaveLength(body.score.gridSide ** 2);
    expect(body.score.coverage).toBeLessThan(1); // a crop: the seller shows part of the reference
    // the watermark (a badge in the top-right corner) is what the outline boxes
    const b2 = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}&skus=SKU-b2`);
    const wm = await get(`/v1/image-verification/check?id=${b2.body.items[0].id}`);
    expect(wm.body.score.coverage).toBe(1);
    expect(wm.body.score.outline.x).toBeGreaterThan(0.5);
    expect(wm.body.score.outline.y).toBeLessThan(0.2);
    expect((await get('/v1/image-verification/check?id=999999')).status).toBe(404);
  });

  it('keeps a decision on a picture for review, refuses it on others, and hides other sellers', async () => {
    const list = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}`);
    const b2 = list.body.items.find((i: { sku: string }) => i.sku === 'SKU-b2');
    const a1 = list.body.items.find((i: { sku: string }) => i.sku === 'SKU-a1');
    const put = (id: number, decision: string | null) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/v1/image-verification/review',
        headers: { authorization: `JWT ${analyst}` },
        payload: { id, decision },
      });
    const ok = await put(b2.id, 'accepted');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().review).toMatchObject({ decision: 'accepted', decidedBy: 'analista' });
    const again = await get(`/v1/image-verification/items?comparisonDate=${IV_DAY}&skus=SKU-b2`);
    expect(again.body.items[0].review.decision).toBe('accepted');
    expect((await put(a1.id, 'wrong')).statusCode).toBe(409);
    expect((await put(b2.id, 'maybe')).statusCode).toBe(400);
    const { rows } = await ctx.db.pool.query(
      `select c.id from image_checks c join products p on p.id = c.product_id where p.product_id = 'a3'`,
    );
    expect((await get(`/v1/image-verification/check?id=${rows[0].id}`)).status).toBe(404);
  });
});

describe('GET /v1/image-verification/items.xlsx', () => {
  it('is a real XLSX of the filter, with the token in the query', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/image-verification/items.xlsx?comparisonDate=${IV_DAY}&authToken=${analyst}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Imágenes');
    expect(ws?.rowCount).toBe(7); // header + 6 checks
    expect(ws?.getRow(1).getCell(7).value).toBe('Similitud');
    const last = ws?.getRow(7);
    expect(last?.getCell(3).value).toBe('SKU-a1');
    expect(last?.getCell(7).value).toBe(1);
    expect(last?.getCell(8).value).toBe('Correcta');
    // the comparison day a date cell (issue 31 item 9), the file named in Spanish with its date
    expect(last?.getCell(1).value).toEqual(new Date(`${IV_DAY}T00:00:00Z`));
    expect(res.headers['content-disposition']).toContain(
      `filename="verificacion_de_imagenes_${IV_DAY}.xlsx"`,
    );
  });

  it('checks the query token like the header, and never logs it', async () => {
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/v1/image-verification/items.xlsx?authToken=nope' }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/v1/image-verification/items.xlsx?authToken=${noModule}`,
        })
      ).statusCode,
    ).toBe(403);
    expect(redactUrl(`/v1/image-verification/items.xlsx?a=1&authToken=${analyst}&b=2`)).toBe(
      '/v1/image-verification/items.xlsx?a=1&authToken=[REDACTED]&b=2',
    );
  });
});

describe('GET /v1/image-verification/pictures/:file', () => {
  it('serves the raster pictures (PNG, JPEG, WebP), cached and immutable; 404 for others', async () => {
    // pictures are drawn only for listings that name them (issue 26, finding 5)
    const { rows } = await ctx.db.pool.query<{ seller_id: number }>('select seller_id from products limit 1');
    for (const [i, kind] of (['identical', 'recompressed', 'resized'] as const).entries())
      await ctx.db.pool.query(
        `insert into products (seller_id, product_id, name, image_url, first_seen, last_seen)
         values ($1, $2, 'formato', $3, now(), now())`,
        [rows[0].seller_id, `formats-${i}`, pictureUrl(IV_KEYS.A, kind)],
      );
    forgetKnownPictures(); // answers remembered by the earlier tests' requests
    for (const [kind, type] of [
      ['identical', 'image/png'],
      ['recompressed', 'image/jpeg'],
      ['resized', 'image/webp'],
    ] as const) {
      const res = await ctx.app.inject({ method: 'GET', url: pictureUrl(IV_KEYS.A, kind) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toContain('immutable');
    }
    const bad = await ctx.app.inject({ method: 'GET', url: '/v1/image-verification/pictures/nope.gif' });
    expect(bad.statusCode).toBe(404);
  });

  it('draws and stores nothing for well-formed names no listing has (issue 26, finding 5)', async () => {
    const dir = join(ctx.config.DATA_DIR, 'pictures');
    const before = existsSync(dir) ? readdirSync(dir).length : 0;
    for (let i = 0; i < 20; i++) {
      const url = pictureUrl(`tv-MADEUP-${1000 + i}`, 'identical');
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
    expect(existsSync(dir) ? readdirSync(dir).length : 0).toBe(before);
  });
});
