import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { seedAccountFixture } from '../../test/fixtures-account.js';

// The operator's CLI, as typed: `npm run ingest -- feed <file> --seller <id> […]` from the repository's
// root, against a test database (DATABASE_URL). Same rules as Operaciones: exact prices, rejected rows
// listed with their line and reason, all or nothing.

const ROOT = resolve(import.meta.dirname, '../../../../..');
const FIX = join(import.meta.dirname, 'fixtures');
let db: Database;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedAccountFixture(db);
  await db.pool.query(
    `insert into sellers (id, name, country, currency, color) values (400, 'Tienda CLI', 'CL', 'CLP', '#123456')`,
  );
  dataDir = mkdtempSync(join(tmpdir(), 'vigia-cli-'));
});
afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function ingest(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'ingest', '--', ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: db.url!,
        DATA_DIR: dataDir,
        JWT_SECRET: 'c'.repeat(32),
        LOG_LEVEL: 'silent',
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => {
      out += b;
    });
    child.stderr.on('data', (b) => {
      err += b;
    });
    child.on('error', fail);
    child.on('exit', (code) => done({ code, out, err }));
  });
}

const listings = async (sellerId: number) =>
  (
    await db.pool.query(
      `select p.product_id, p.published, lc.normal_price::float8 as normal, lc.sale_price::float8 as sale
         from products p join listing_current lc on lc.product_id = p.id
        where p.seller_id = $1 order by 1`,
      [sellerId],
    )
  ).rows;

it('imports a Merchant XML file for a seller, lists the rejected rows, and changes nothing the second time', async () => {
  const file = join(FIX, 'merchant-rss.xml');
  const first = await ingest('feed', file, '--seller', '400');
  expect(first.err).toBe('');
  expect(first.code).toBe(0);
  expect(first.out).toContain(
    'línea 43 (SUR-004): moneda USD distinta de la del eCommerce (CLP); no se convierte',
  );
  expect(first.out).toContain('línea 49 (SUR-005): falta el precio');
  expect(first.out).toContain('línea 54: falta el id');
  expect(first.out).toMatch(
    /Feed importado en [\d.]+ s: 6 filas leídas, 3 escritas \(3 con cambios, 3 nuevas, 0 despublicadas\), 3 rechazadas\./,
  );
  expect(await listings(400)).toEqual([
    { product_id: 'SUR-001', published: true, normal: 1299990, sale: null },
    { product_id: 'SUR-002', published: true, normal: 89990, sale: 69990 },
    { product_id: 'SUR-003', published: true, normal: 1299990, sale: null }, // "1.299.990 CLP", its sale expired
  ]);
  const again = await ingest('feed', file, '--seller', '400');
  expect(again.code).toBe(0);
  expect(again.out).toMatch(/3 escritas \(0 con cambios, 0 nuevas, 0 despublicadas\)/);
  const { rows } = await db.pool.query(
    `select count(*)::int n from ingest_runs where seller_id = 400 and source = 'feed' and status = 'succeeded'`,
  );
  expect(rows[0].n).toBe(2);
}, 120_000);

it('a Latin-1 CSV with a column mapping, as a delta', async () => {
  const res = await ingest(
    'feed',
    join(FIX, 'spanish-latin1.csv'),
    '--seller',
    '5',
    '--format',
    'csv',
    '--encoding',
    'latin1',
    '--mode',
    'delta',
    '--map',
    'id=Código,title=Nombre del producto,price=Precio,sale_price=Precio oferta',
  );
  expect(res.err).toBe('');
  expect(res.code).toBe(0);
  expect(res.out).toMatch(/6 filas leídas, 3 escritas .*3 rechazadas/);
  const rows = await listings(5);
  expect(rows.find((r) => r.product_id === 'CL-1')).toMatchObject({ normal: 1299990, sale: null });
  expect(rows.find((r) => r.product_id === 'CL-2')).toMatchObject({ normal: 24990, sale: 19990 });
}, 120_000);

it('a file that is no feed changes nothing and says why (exit code 1); a missing --seller is a usage error', async () => {
  const before = await db.pool.query('select count(*)::int n from products');
  const bad = await ingest('feed', join(FIX, 'not-a-feed.xml'), '--seller', '125');
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/El feed no se importó \(no cambió nada\): no es XML válido/);
  expect((await db.pool.query('select count(*)::int n from products')).rows[0].n).toBe(before.rows[0].n);
  expect(await listings(125)).toEqual([]);

  const usage = await ingest('feed', join(FIX, 'merchant-rss.xml'));
  expect(usage.code).toBe(2);
  expect(usage.err).toContain('--seller <id> es obligatorio');
}, 120_000);
