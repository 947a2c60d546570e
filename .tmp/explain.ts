// ad-hoc: EXPLAIN ANALYZE of assortment queries on a database (not committed)
import pg from 'pg';
import {
  selectAssortmentFigures,
  selectStateProducts,
  selectStockEvents,
} from '../apps/server/src/modules/assortment/queries.js';

const url = process.env.URL as string;
const pool = new pg.Pool({ connectionString: url, max: 2 });
const which = process.argv[2];
const captured: { text: string; values: unknown[] }[] = [];
const spy = {
  query: async (text: string, values: unknown[]) => {
    const plan = await pool.query(`explain (analyze, buffers) ${text}`, values);
    captured.push({ text, values });
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    const res = await pool.query(text, values);
    return res;
  },
};
const sellersRes = await pool.query(
  "select array_agg(seller_id order by seller_id) as s from license_sellers ls join licenses l on l.id = ls.license_id join users u on u.org_id = l.org_id where u.email = 'demo@example.com'",
);
const sellers: number[] = sellersRes.rows[0].s;
const roots = (
  await pool.query(
    "select array_agg(classification_id) as r from license_classifications lc join licenses l on l.id = lc.license_id join users u on u.org_id = l.org_id where u.email = 'demo@example.com'",
  )
).rows[0].r;
const today = new Date().toISOString().slice(0, 10);
const day = (n: number) => new Date(Date.now() - n * 86400000).toISOString().slice(0, 10);
const sel = { sellers, roots };
const rates = new Map([['CLP', 1], ['USD', 900], ['PEN', 250], ['MXN', 50], ['PAB', 900]]);
const base = { selection: sel, to: today, from: day(29), rates, sort: 'price' as const, dir: 'desc' as const, limit: 25, offset: 0 };
const t = performance.now();
if (which === 'figures')
  await selectAssortmentFigures(spy as never, sel, { from: day(40), to: day(11), previousFrom: day(70), previousTo: day(41) });
else if (which === 'todas') await selectStateProducts(spy as never, base);
else if (which === 'todas-name') await selectStateProducts(spy as never, { ...base, sort: 'name', dir: 'asc', offset: 50 });
else if (which === 'past') await selectStateProducts(spy as never, { ...base, to: day(40), sort: 'brand' });
else if (which === 'wentout') await selectStockEvents(spy as never, { ...base, from: day(179), event: 'went_out', sort: 'date' });
else if (which === 'out') await selectStateProducts(spy as never, { ...base, outOnly: true, sort: 'date' });
console.log('ms', performance.now() - t);
await pool.end();
