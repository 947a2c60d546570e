import { DEFAULT_TIMEZONE } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../lib/jwt.js';
import { jobsOf, waitForJob } from '../../platform/jobs/queue.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import {
  insertClassification,
  insertFxRate,
  insertSeller,
  observe,
  seedReferenceData,
} from '../../test/fixtures.js';
import { insertZoneOrgs } from '../../test/zone-orgs.js';
import { fanOut } from './dispatch.js';
import { composeEmail } from './email.js';
import '../rollups.js';

// A notification's day and amounts (issue 25): the rates of the event's day in the recipient's
// organisation's day zone, amounts in the user's currency, the link's day in that zone, times shown in the
// user's own timezone. Hand-built market: pivot Mercado Central (5, CLP) and Tienda Lima (140, PEN), two
// listings matched by EAN. PEN: 250 CLP on Oct 31, 200 CLP from Nov 1.
//
//   run (UTC)                Santiago      Lima          Mexico City   Tienda Lima                 pivot
//   2026-10-30 16:00Z both   Oct 30        Oct 30        Oct 30        X S/12, Y S/20              X $2.200, Y $3.000
//   2026-10-31 16:00Z both   Oct 31        Oct 31        Oct 31        same                        same
//   2026-11-01 04:30Z 140    Nov 1 01:30   Oct 31 23:30  Oct 31 22:30  X S/8 (−33 %), Y SALE S/15
//
// X drops 12 → 8 (1 − 8/12 = 33,3 %) and becomes the cheapest (cheapest_gained), Y starts a promotion.
//   Lima org (day Oct 31, 250): X before 12 × 250 = $3.000 (2.º, above $2.200), after 8 × 250 = $2.000 (1.º)
//   Santiago org (day Nov 1, 200): before 12 × 200 = $2.400 (2.º), after 8 × 200 = $1.600 (1.º)
//   a Lima org user working in PEN: S/12 → S/8, no conversion
//   the promotion's link opens Promociones por día on Oct 31 (Lima) or Nov 1 (Santiago)
//   the e-mail of the Santiago org's user whose timezone is Mexico City dates it 31-10-2026 22:30

const LIMA = 'America/Lima';

let ctx: TestContext;
const users: Record<string, number> = {};
const orgs: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Mercado Central' });
      await insertSeller(pool, { id: 140, name: 'Tienda Lima', country: 'PE', currency: 'PEN' });
      await insertFxRate(pool, 'PEN', '2026-10-31', 250);
      await insertFxRate(pool, 'PEN', '2026-11-01', 200);
      const leaf = await insertClassification(pool, 'Hogar');
      const license = { sellers: [140], pivots: [5], modules: ['dpm', 'promotions'] };
      const ids = {
        ...(await insertZoneOrgs(
          pool,
          [
            ['lima', LIMA],
            ['santiago', DEFAULT_TIMEZONE],
          ],
          { ...license, currencies: ['CLP'] },
        )),
        ...(await insertZoneOrgs(pool, [['sol', LIMA]], { ...license, currencies: ['PEN', 'CLP'] })),
      };
      for (const [who, x] of Object.entries(ids)) {
        users[who] = x.user;
        orgs[who] = x.org;
      }
      await pool.query(`update users set timezone = 'America/Mexico_City' where id = $1`, [users.santiago]);
      await pool.query(`update users set currency = 'PEN' where id = $1`, [users.sol]);
      for (const id of Object.values(users))
        await pool.query(
          `insert into notification_subscriptions (user_id, namespace, enabled, channel, min_size)
           values ($1, 'promotions', true, 'app', 0)`,
          [id],
        );
      const item = (id: string, price: number, sale?: number) => ({
        productId: id,
        ean: id === 'X' ? '7802222000017' : '7802222000024',
        name: `Producto ${id}`,
        brand: 'Marca',
        classificationId: leaf,
        normalPrice: price,
        ...(sale ? { salePrice: sale } : {}),
      });
      for (const t of ['2026-10-30T16:00:00Z', '2026-10-31T16:00:00Z']) {
        await observe(pool, 5, t, [item('X', 2200), item('Y', 3000)]);
        await observe(pool, 140, t, [item('X', 12), item('Y', 20)]);
      }
      await observe(pool, 140, '2026-11-01T04:30:00Z', [item('X', 8), item('Y', 20, 15)]);
    },
  });
  // the app's worker may be running the queued dispatch (SKIP LOCKED): wait for it, then dispatch the rest
  const jobs = await jobsOf(ctx.db.pool, 'notifications:dispatch');
  for (const j of jobs) await waitForJob(ctx.db.pool, j.id, { timeoutMs: 20_000 });
  await fanOut(ctx.db.pool);
}, 120_000);
afterAll(() => ctx?.close());

async function notices(who: string) {
  const { rows } = await ctx.db.pool.query<{ kind: string; body: string; link: string; occurred_at: Date }>(
    'select kind, body, link, occurred_at from notifications where user_id = $1 order by kind',
    [users[who]],
  );
  return rows;
}

describe("a notification's day is its recipient's organisation's", () => {
  it('the market facts: one cheapest_gained of X and one promotion_start of Y at 04:30Z', async () => {
    const { rows } = await ctx.db.pool.query(
      `select kind, occurred_at from change_events where seller_id = 140 order by kind`,
    );
    expect(rows.map((r) => [r.kind, r.occurred_at.toISOString()])).toEqual([
      ['cheapest_gained', '2026-11-01T04:30:00.000Z'],
      ['promotion_start', '2026-11-01T04:30:00.000Z'],
    ]);
  });

  it("prices in the user's currency at the rate of the event's day in the organisation's zone", async () => {
    const body = async (who: string) => (await notices(who)).find((n) => n.kind === 'cheapest_gained')?.body;
    expect(await body('lima')).toBe(
      'Tienda Lima bajó 33 % el precio de Producto X (de $3.000 a $2.000 CLP) y ahora es el más barato del mercado (antes 2.º).',
    );
    expect(await body('santiago')).toBe(
      'Tienda Lima bajó 33 % el precio de Producto X (de $2.400 a $1.600 CLP) y ahora es el más barato del mercado (antes 2.º).',
    );
    // a Peruvian seller's soles reach a CLP user converted (above); a PEN user reads them as they are
    expect(await body('sol')).toMatch(
      /^Tienda Lima bajó 33 % el precio de Producto X \(de S\/\s12,00 a S\/\s8,00 PEN\) y ahora es el más barato del mercado \(antes 2\.º\)\.$/,
    );
  });

  it("the promotion's link opens Promociones por día on the event's day in the organisation's zone", async () => {
    const link = async (who: string) =>
      new URL(`http://x${(await notices(who)).find((n) => n.kind === 'promotion_start')?.link}`).searchParams;
    for (const who of ['lima', 'sol']) {
      expect((await link(who)).get('from_date')).toBe('2026-10-31');
      expect((await link(who)).get('to_date')).toBe('2026-10-31');
    }
    expect((await link('santiago')).get('from_date')).toBe('2026-11-01');
  });

  it("the e-mail dates it in the user's own timezone (Mexico City: 22:30 of Oct 31)", async () => {
    const n = (await notices('santiago'))[0];
    const mail = composeEmail(
      ctx.config,
      { userId: users.santiago, email: 'santiago@example.com', timezone: 'America/Mexico_City' },
      [{ namespace: 'prices', title: 't', body: n.body, link: null, occurredAt: n.occurred_at }],
      false,
    );
    expect(mail.text).toMatch(/31-10-2026,? 22:30/);
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/v1/notifications/?page_size=10',
      headers: {
        authorization: `JWT ${signToken({ sub: users.santiago, org: orgs.santiago, ver: 0 }, ctx.config.JWT_SECRET, 3600)}`,
      },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().timezone).toBe('America/Mexico_City');
  });
});
