import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { jobsOf } from '../../platform/jobs/queue.js';
import { createTestDatabase } from '../../test/context.js';
import {
  insertClassification,
  insertOrgWithLicense,
  insertSeller,
  observe,
  seedReferenceData,
} from '../../test/fixtures.js';
import { seedNotificationsMarket } from '../../test/notifications-fixture.js';
import { evaluate, isMassStockOut, type ListingState, rankAmong, stateOf } from './rules.js';
import './rollup.js';

// The change-event rules over the hand-built history of test/notifications-fixture.ts (its comment lists
// every expected event, worked out by hand), then the pure rules on their edge cases.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedNotificationsMarket(db.pool);
});
afterAll(() => db?.close());

interface EventRow {
  kind: string;
  seller_id: number;
  day: string;
  size: number;
  facts: Record<string, unknown>;
  names: string[];
}

async function events(): Promise<EventRow[]> {
  const { rows } = await db.pool.query<EventRow>(
    `select e.kind, e.seller_id, to_char(e.occurred_at at time zone 'UTC', 'DD') as day, e.size, e.facts,
            array(select p.name from jsonb_array_elements(e.items) i join products p on p.id = (i->>0)::bigint
                   order by p.name) as names
       from change_events e order by e.occurred_at, e.kind`,
  );
  return rows;
}

describe('change events at ingest (hand-built history)', () => {
  it('emits exactly the expected events, on the right days', async () => {
    const got = (await events()).map((e) => `${e.day} ${e.kind} ${e.seller_id} ${e.names.join(',')}`);
    expect(got).toEqual([
      '03 cheapest_gained 125 Producto 01',
      '03 promotion_start 125 Producto 04',
      '03 stock_out 125 Producto 03',
      '04 new_listing 125 Producto 06',
      '04 promotion_end 125 Producto 04',
      '06 repricing 125 Producto 01',
    ]);
  });

  it('carries the sizes and the facts of the explanation', async () => {
    const all = await events();
    const gained = all.find((e) => e.kind === 'cheapest_gained');
    // 1100 → 900: −18,18 %; others 1000 (pivot) and 1050 (116): 3rd before, 1st after
    expect(gained?.size).toBeCloseTo(18.2, 5);
    expect(gained?.facts).toMatchObject({
      before: 1100,
      after: 900,
      rankBefore: 3,
      rankAfter: 1,
      currency: 'CLP',
    });
    const promo = all.find((e) => e.kind === 'promotion_start');
    expect(promo?.size).toBe(1); // one listing…
    const { rows } = await db.pool.query<{ d: number }>(
      `select (items->0->>4)::float8 as d from change_events where kind = 'promotion_start'`,
    );
    expect(rows[0].d).toBe(20); // …at (1000 − 800) / 1000
    const repricing = all.find((e) => e.kind === 'repricing');
    expect(repricing?.facts).toMatchObject({ before: 1100, after: 900, days: 3 });
  });

  it('no event from the ×100 extraction error, flapping folded, the temporary dip held back — and counted', async () => {
    const { rows } = await db.pool.query<{ reason: string; n: number }>(
      'select reason, sum(n)::int as n from change_event_suppressed group by reason order by reason',
    );
    expect(rows).toEqual([
      { reason: 'flapping', n: 2 },
      { reason: 'suspicious', n: 1 },
      { reason: 'temporary', n: 1 },
    ]);
    expect((await events()).some((e) => e.names.includes('Producto 02'))).toBe(false);
  });

  it('queues one dispatch job for the events', async () => {
    const jobs = await jobsOf(db.pool, 'notifications:dispatch');
    expect(jobs.map((j) => j.status)).toEqual(['queued']);
  });
});

describe("a mass stock-out at ingest (more than 30 % of a seller's matched listings at once)", () => {
  let mass: Database;
  beforeAll(async () => {
    mass = await createTestDatabase();
    await seedReferenceData(mass.pool);
    for (const [id, name] of [
      [5, 'Mercado Central'],
      [125, 'Hogar Norte'],
      [116, 'Hogar Total'],
    ] as const)
      await insertSeller(mass.pool, { id, name });
    const leaf = await insertClassification(mass.pool, 'Hogar');
    await insertOrgWithLicense(mass.pool, {
      sellers: [5, 125, 116],
      pivots: [5],
      currencies: ['CLP'],
      modules: ['dpm', 'assortment'],
    });
    // 100 listings of each seller, matched by EAN
    const items = (out: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        productId: `P-${i}`,
        ean: `78000000${String(i).padStart(3, '0')}`,
        name: `Producto ${i}`,
        brand: 'Marca Uno',
        classificationId: leaf,
        normalPrice: 1000,
        stockOut: i < out,
      }));
    for (const seller of [5, 125, 116]) await observe(mass.pool, seller, '2026-11-02T12:00:00Z', items(0));
    // 125: 40 of its 100 out at once (mass: none told, counted); 116: 25 (30 or fewer: told)
    await observe(mass.pool, 125, '2026-11-03T12:00:00Z', items(40));
    await observe(mass.pool, 116, '2026-11-03T12:00:00Z', items(25));
  });
  afterAll(() => mass?.close());

  it('is suppressed and counted; a smaller one is told', async () => {
    const { rows: suppressed } = await mass.pool.query(
      `select seller_id, reason, sum(n)::int as n from change_event_suppressed
        where reason = 'mass_stock_out' group by 1, 2`,
    );
    expect(suppressed).toEqual([{ seller_id: 125, reason: 'mass_stock_out', n: 40 }]);
    const { rows: told } = await mass.pool.query(
      `select seller_id, sum(size)::int as n from change_events where kind = 'stock_out' group by 1 order by 1`,
    );
    expect(told).toEqual([{ seller_id: 116, n: 25 }]);
  });
});

describe('rules (pure)', () => {
  const t0 = new Date('2026-11-02T12:00:00Z');
  const at = (h: number) => new Date(t0.getTime() + h * 3_600_000);
  const base: ListingState = stateOf({
    price: 1000,
    normal: 1000,
    promo: false,
    stockOut: false,
    published: true,
    isNew: false,
  });
  const seen = (p: Partial<Parameters<typeof evaluate>[1]>) => ({
    price: 1000,
    normal: 1000,
    promo: false,
    stockOut: false,
    published: true,
    isNew: false,
    ...p,
  });

  it('ranks as the screens do: ties (within the tolerance) share the place, no price has no place', () => {
    expect(rankAmong(900, [1000, 1050])).toBe(1);
    expect(rankAmong(1000, [1000, 1050])).toBe(1);
    expect(rankAmong(1100, [1000, 1050])).toBe(3);
    // 1000 and 1000 × (1 + 1e-10) are the same price on the screens (INDEX_EPSILON): a tie, not 2nd
    expect(rankAmong(1000 * (1 + 1e-10), [1000, 1050])).toBe(1);
    expect(rankAmong(null, [1000])).toBeNull();
    expect(rankAmong(1000, [])).toBeNull();
  });

  it('a promotion priced at 0 carries no discount; a real one its discount %', () => {
    // the effective price ignores a price of 0: the listing stays at its normal price of 1000
    const zero = evaluate(base, seen({ promo: true, price: 1000, normal: 1000 }), [900], t0);
    expect(zero.group).toEqual([{ kind: 'promotion_start', discount: null, cheapest: false }]);
    const real = evaluate(base, seen({ promo: true, price: 800, normal: 1000 }), [900], t0);
    expect(real.group).toEqual([{ kind: 'promotion_start', discount: 20, cheapest: true }]);
  });

  it('a price ×5 away is suspicious; ÷100 too; a zero price too; a ×4.9 move is not', () => {
    expect(evaluate(base, seen({ price: 5001, normal: 5001 }), [900], t0).suppressed).toEqual(['suspicious']);
    expect(evaluate(base, seen({ price: 10, normal: 10 }), [900], t0).suppressed).toEqual(['suspicious']);
    expect(evaluate(base, seen({ price: 0, normal: 0 }), [900], t0).suppressed).toEqual(['suspicious']);
    expect(evaluate(base, seen({ price: 4900, normal: 4900 }), [900], t0).suppressed).toEqual([]);
  });

  it('a suspicious value still current after two days is taken quietly', () => {
    const s = { ...base, suspectSince: t0 };
    const before = evaluate(s, seen({ price: 100_000, normal: 100_000 }), [], at(47));
    expect(before.next.price).toBe(1000);
    const after = evaluate(s, seen({ price: 100_000, normal: 100_000 }), [], at(48));
    expect(after.next.price).toBe(100_000);
    expect(after.group).toEqual([]);
    expect(after.price).toEqual([]);
  });

  it('a move below 1 % never changes "the cheapest"', () => {
    // 1000 → 995 (−0,5 %) passes the other seller at 998
    expect(evaluate(base, seen({ price: 995, normal: 995 }), [998], t0).price).toEqual([]);
    expect(evaluate(base, seen({ price: 985, normal: 985 }), [998], t0).price.map((p) => p.kind)).toEqual([
      'cheapest_gained',
    ]);
  });

  it('losing the cheapest place', () => {
    const out = evaluate(
      { ...base, price: 900, normal: 900 },
      seen({ price: 1100, normal: 1100 }),
      [1000, 1050],
      t0,
    );
    expect(out.price).toEqual([
      { kind: 'cheapest_lost', before: 900, after: 1100, rankBefore: 1, rankAfter: 3 },
    ]);
  });

  it('repricing: held 3 days (not 71 h), at least 2 %', () => {
    const pending = { ...base, normal: 1100, price: 1100, pendingFrom: 1000, pendingSince: t0 };
    expect(evaluate(pending, seen({ price: 1100, normal: 1100 }), [], at(71)).price).toEqual([]);
    expect(
      evaluate(pending, seen({ price: 1100, normal: 1100 }), [], at(72)).price.map((p) => p.kind),
    ).toEqual(['repricing']);
    const small = { ...pending, normal: 1015, price: 1015 };
    expect(evaluate(small, seen({ price: 1015, normal: 1015 }), [], at(72)).suppressed).toEqual([
      'below_floor',
    ]);
  });

  it('stock flapping: a change within 24 h of the last stock event is folded', () => {
    const out1 = evaluate(base, seen({ stockOut: true }), [], t0);
    expect(out1.group.map((g) => g.kind)).toEqual(['stock_out']);
    const out2 = evaluate(out1.next, seen({}), [], at(3));
    expect(out2.group).toEqual([]);
    expect(out2.suppressed).toEqual(['flapping']);
    const out3 = evaluate(out2.next, seen({}), [], at(30));
    expect(out3.group).toEqual([]); // no change against the state: in stock already
    const out4 = evaluate(out2.next, seen({ stockOut: true }), [], at(30));
    expect(out4.group.map((g) => g.kind)).toEqual(['stock_out']);
  });

  it('a mass stock-out run is suspicious: ≥ 20 listings and more than 30 % of the matched ones', () => {
    expect(isMassStockOut(19, 20)).toBe(false);
    expect(isMassStockOut(31, 100)).toBe(true);
    expect(isMassStockOut(30, 100)).toBe(false);
  });

  it('a new listing is told only when first seen; unpublished listings say nothing', () => {
    expect(evaluate(null, seen({ isNew: true }), [], t0).group.map((g) => g.kind)).toEqual(['new_listing']);
    expect(evaluate(null, seen({ isNew: false }), [], t0).group).toEqual([]);
    const gone = evaluate(base, seen({ published: false, price: 500, normal: 500 }), [900], t0);
    expect(gone.group).toEqual([]);
    expect(gone.price).toEqual([]);
  });
});
