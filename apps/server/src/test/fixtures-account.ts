import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { Database, Queryable } from '../db/database.js';
import { signToken } from '../lib/jwt.js';
import { hashPassword } from '../lib/password.js';

// A small, hand-made account fixture for API tests: two organisations with different licenses, three
// users, a few sellers in two countries, brands, a licensed classification tree, category trees and
// listings. Reuse it in any test that needs a signed-in user:
//
//   let ctx: TestContext; let fx: AccountFixture;
//   beforeAll(async () => {
//     ctx = await createTestContext({ seed: async (db) => { fx = await seedAccountFixture(db); } });
//   });
//   const token = tokenFor(ctx, fx.users.demo);                     // fast, no rate limits
//   const token2 = await loginAs(ctx.app, fx.users.demo.email, FIXTURE_PASSWORD);  // through the API
//   await ctx.app.inject({ method: 'GET', url: '/v1/users/me/', headers: authHeader(token) });
//
// Reference rows (currencies, countries, sellers) are inserted with `on conflict do nothing`, so the
// fixture can be combined with a test's own data. Seller ids are fixed (5, 116, 125 as in the seeds).

/** Password of every fixture user. */
export const FIXTURE_PASSWORD = 'demo1234';

/** Fixed seller ids of the fixture. */
export const FIXTURE_SELLERS = {
  /** Pivot of both organisations; the seed's brand-comparator seller. */
  cinco: 5,
  /** Pivot of the demo organisation; an image-verification seller. */
  sur: 116,
  /** Competitor of both organisations; an image-verification seller. */
  norte: 125,
  /** Peruvian competitor (PEN), licensed to the demo organisation only. */
  lima: 200,
  /** In no license. */
  fuera: 300,
} as const;

export interface FixtureUser {
  id: number;
  org_id: number;
  email: string;
  name: string;
  token_version: number;
}

export interface AccountFixture {
  orgs: { demo: number; limited: number };
  licenses: { demo: number; limited: number };
  users: {
    /** demo@example.com — all six modules, pivots 116 (own) and 5, currencies CLP and USD. */
    demo: FixtureUser;
    /** limited@example.com — modules dpm and reports, pivot 5, sellers 5 and 125, CLP, whole tree. */
    limited: FixtureUser;
    /** inactive@example.com — demo organisation, is_active = false. */
    inactive: FixtureUser;
  };
  sellers: typeof FIXTURE_SELLERS;
  /** acme: own brand of demo (at 116); bolt: at 125; zeta: only at 300; ghost: only unpublished at 116. */
  brands: { acme: number; bolt: number; zeta: number; ghost: number };
  /**
   * v2_classification: electro › audio › audifonos, hogar › cocina › ollas, moda (root only).
   * The demo license grants the roots electro and hogar; limited grants nothing (= whole tree).
   */
  classifications: {
    electro: number;
    audio: number;
    audifonos: number;
    hogar: number;
    cocina: number;
    ollas: number;
    moda: number;
  };
  /** Category trees: 116 Tecnología › Audio; 125 Hogar; 300 Fuera. */
  categories: { surTecnologia: number; surAudio: number; norteHogar: number; fueraRoot: number };
}

type Seedable = Database | pg.Pool | Queryable;
const queryableOf = (db: Seedable): Queryable => ('kind' in db && 'pool' in db ? db.pool : (db as Queryable));

/** Inserts the fixture and returns its ids. Call it once per test database (from `seed`). */
export async function seedAccountFixture(target: Seedable): Promise<AccountFixture> {
  const db = queryableOf(target);
  const q = async <T extends pg.QueryResultRow = { id: number }>(sql: string, params: unknown[] = []) =>
    (await db.query<T>(sql, params)).rows;
  const id = async (sql: string, params: unknown[] = []) => (await q(sql, params))[0].id;

  await q(
    `insert into currencies (acronym, name, decimals) values
       ('CLP', 'Peso chileno', 0), ('USD', 'Dólar estadounidense', 2), ('PEN', 'Sol peruano', 2)
     on conflict do nothing`,
  );
  await q(
    `insert into countries (code, name, flag, currency) values
       ('CL', 'Chile', '🇨🇱', 'CLP'), ('PE', 'Perú', '🇵🇪', 'PEN')
     on conflict do nothing`,
  );
  const S = FIXTURE_SELLERS;
  await q(
    `insert into sellers (id, name, country, currency, color) values
       ($1, 'Tienda Cinco', 'CL', 'CLP', '#6a1b9a'),
       ($2, 'Mercado Sur', 'CL', 'CLP', '#d81b60'),
       ($3, 'Hogar Norte', 'CL', 'CLP', '#1e88e5'),
       ($4, 'Lima Store', 'PE', 'PEN', '#43a047'),
       ($5, 'Fuera de Licencia', 'CL', 'CLP', '#757575')
     on conflict do nothing`,
    [S.cinco, S.sur, S.norte, S.lima, S.fuera],
  );

  const brand = (name: string) =>
    id('insert into brands (name, normalized_name) values ($1, $2) returning id', [name, name.toLowerCase()]);
  const brands = {
    acme: await brand('Acme Fixture'),
    bolt: await brand('Bolt Fixture'),
    zeta: await brand('Zeta Fixture'),
    ghost: await brand('Ghost Fixture'),
  };

  const cls = async (name: string, parent: { id: number; path: number[]; level: number } | null) => {
    const level = parent ? parent.level + 1 : 1;
    const newId = await id(
      `insert into classifications (parent_id, name, level, path) values ($1, $2, $3, '{}') returning id`,
      [parent?.id ?? null, name, level],
    );
    const path = [...(parent?.path ?? []), newId];
    await q('update classifications set path = $2 where id = $1', [newId, path]);
    return { id: newId, path, level };
  };
  const electro = await cls('Electrónica', null);
  const audio = await cls('Audio', electro);
  const audifonos = await cls('Audífonos', audio);
  const hogar = await cls('Hogar', null);
  const cocina = await cls('Cocina', hogar);
  const ollas = await cls('Ollas', cocina);
  const moda = await cls('Moda', null);

  const cat = (seller: number, name: string, parent: number | null, level: number) =>
    id('insert into categories (seller_id, parent_id, name, level) values ($1, $2, $3, $4) returning id', [
      seller,
      parent,
      name,
      level,
    ]);
  const surTecnologia = await cat(S.sur, 'Tecnología', null, 1);
  const surAudio = await cat(S.sur, 'Audio', surTecnologia, 2);
  const norteHogar = await cat(S.norte, 'Hogar', null, 1);
  const fueraRoot = await cat(S.fuera, 'Fuera', null, 1);

  const product = (seller: number, pid: string, brandId: number, published: boolean, clsId: number) =>
    q(
      `insert into products (seller_id, product_id, name, brand_id, classification_id, first_seen, last_seen,
                             published, unpublished_at)
       values ($1, $2, $3, $4, $5, now() - interval '30 days', now(), $6, case when $6 then null else now() end)`,
      [seller, pid, `Producto ${pid}`, brandId, clsId, published],
    );
  await product(S.sur, 'SUR-1', brands.acme, true, audifonos.id);
  await product(S.sur, 'SUR-2', brands.ghost, false, audifonos.id);
  await product(S.norte, 'NOR-1', brands.bolt, true, ollas.id);
  await product(S.fuera, 'FUE-1', brands.zeta, true, moda.id);

  const org = (name: string) => id('insert into organisations (name) values ($1) returning id', [name]);
  const orgs = { demo: await org('Retail Demo (fixture)'), limited: await org('Limitada (fixture)') };

  const license = async (
    orgId: number,
    l: {
      sellers: number[];
      pivots: number[];
      currencies: string[];
      modules: string[];
      brands: number[];
      cls: number[];
    },
  ) => {
    const licenseId = await id('insert into licenses (org_id) values ($1) returning id', [orgId]);
    const many = (table: string, column: string, values: unknown[], cast: string) =>
      q(`insert into ${table} (license_id, ${column}) select $1, unnest($2::${cast}[])`, [licenseId, values]);
    await many('license_sellers', 'seller_id', l.sellers, 'int');
    await many('license_pivots', 'seller_id', l.pivots, 'int');
    await many('license_currencies', 'currency', l.currencies, 'text');
    await many('license_modules', 'module_code', l.modules, 'text');
    await many('license_brands', 'brand_id', l.brands, 'int');
    await many('license_classifications', 'classification_id', l.cls, 'int');
    return licenseId;
  };
  const licenses = {
    demo: await license(orgs.demo, {
      sellers: [S.cinco, S.norte, S.lima],
      pivots: [S.sur, S.cinco],
      currencies: ['CLP', 'USD'],
      modules: ['dpm', 'ecommerce_navigation', 'promotions', 'assortment', 'reports', 'image_verification'],
      brands: [brands.acme],
      cls: [electro.id, hogar.id],
    }),
    limited: await license(orgs.limited, {
      sellers: [S.cinco, S.norte],
      pivots: [S.cinco],
      currencies: ['CLP'],
      modules: ['dpm', 'reports'],
      brands: [],
      cls: [],
    }),
  };

  const hash = await hashPassword(FIXTURE_PASSWORD);
  const user = async (
    orgId: number,
    email: string,
    name: string,
    pivot: number,
    active = true,
    admin = false,
  ) =>
    (
      await q<FixtureUser>(
        `insert into users (org_id, email, name, password_hash, currency, pivot_id, is_active, is_admin)
         values ($1, $2, $3, $4, 'CLP', $5, $6, $7)
         returning id, org_id, email, name, token_version`,
        [orgId, email, name, hash, pivot, active, admin],
      )
    )[0];
  const users = {
    demo: await user(orgs.demo, 'demo@example.com', 'Usuaria Demo', S.sur, true, true),
    limited: await user(orgs.limited, 'limited@example.com', 'Usuario Limitado', S.cinco),
    inactive: await user(orgs.demo, 'inactive@example.com', 'Usuario Inactivo', S.sur, false),
  };

  return {
    orgs,
    licenses,
    users,
    sellers: FIXTURE_SELLERS,
    brands,
    classifications: {
      electro: electro.id,
      audio: audio.id,
      audifonos: audifonos.id,
      hogar: hogar.id,
      cocina: cocina.id,
      ollas: ollas.id,
      moda: moda.id,
    },
    categories: { surTecnologia, surAudio, norteHogar, fueraRoot },
  };
}

/**
 * A valid token for a user, signed directly (no scrypt, no rate limit): the usual way to authenticate
 * in tests. `token_version` must be the user's current one (re-read it after a password change).
 */
export function tokenFor(
  ctx: { config: Pick<Config, 'JWT_SECRET' | 'TOKEN_TTL_SECONDS'> },
  user: Pick<FixtureUser, 'id' | 'org_id' | 'token_version'>,
): string {
  return signToken(
    { sub: user.id, org: user.org_id, ver: user.token_version },
    ctx.config.JWT_SECRET,
    ctx.config.TOKEN_TTL_SECONDS,
  );
}

/** The Authorization header of a token (the seed's `JWT <token>` scheme). */
export const authHeader = (token: string) => ({ authorization: `JWT ${token}` });

let loginAddress = 0;

/**
 * Logs in through POST /v1/auth-token/ and returns the token; throws with the response when it fails.
 * Each call comes from its own client address, so the per-IP login limit does not trip tests (the
 * per-e-mail limit, 10 a minute, still applies: prefer tokenFor() in loops).
 */
export async function loginAs(
  app: FastifyInstance,
  email: string,
  password = FIXTURE_PASSWORD,
): Promise<string> {
  loginAddress = (loginAddress + 1) % 65_000;
  const res = await app.inject({
    method: 'POST',
    url: '/v1/auth-token/',
    payload: { email, password },
    remoteAddress: `10.99.${loginAddress >> 8}.${loginAddress & 255}`,
  });
  if (res.statusCode !== 200) throw new Error(`login of ${email} failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}
