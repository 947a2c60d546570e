import { appConfig, PIVOT_GATED_SCREENS, screenShownForPivot } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import {
  type AccountFixture,
  authHeader,
  seedAccountFixture,
  tokenFor,
} from '../../test/fixtures-account.js';
import { buildTree } from './tree.js';

let ctx: TestContext;
let fx: AccountFixture;
let demo: string;
let limited: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
    env: { BRAND_COMPARATOR_SELLERS: '5', IMAGE_VERIFICATION_SELLERS: '116, 125' },
  });
  demo = tokenFor(ctx, fx.users.demo);
  limited = tokenFor(ctx, fx.users.limited);
});
afterAll(() => ctx?.close());

const get = async (url: string, token: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: authHeader(token) });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const brands = (token: string, payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/licenses/brands/me',
    headers: authHeader(token),
    payload: payload as object,
  });

const sellers = {
  cinco: { id: 5, name: 'Tienda Cinco', country: 'CL', color: '#6a1b9a', currency: 'CLP' },
  sur: { id: 116, name: 'Mercado Sur', country: 'CL', color: '#d81b60', currency: 'CLP' },
  norte: { id: 125, name: 'Hogar Norte', country: 'CL', color: '#1e88e5', currency: 'CLP' },
  lima: { id: 200, name: 'Lima Store', country: 'PE', color: '#43a047', currency: 'PEN' },
};

describe('license data', () => {
  it('currencies', async () => {
    expect(await get('/v1/licenses/currencies/me', demo)).toEqual([
      { acronym: 'CLP', name: 'Peso chileno' },
      { acronym: 'USD', name: 'Dólar estadounidense' },
    ]);
    expect(await get('/v1/licenses/currencies/me', limited)).toEqual([
      { acronym: 'CLP', name: 'Peso chileno' },
    ]);
  });

  it('pivots', async () => {
    const pivot = ({ id, name, country, color }: typeof sellers.sur) => ({ id, name, country, color });
    expect(await get('/v1/licenses/pivots/me', demo)).toEqual([pivot(sellers.sur), pivot(sellers.cinco)]);
    expect(await get('/v1/licenses/pivots/me', limited)).toEqual([pivot(sellers.cinco)]);
  });

  it('role modules', async () => {
    expect(await get('/v1/licenses/role-modules/me', demo)).toEqual(
      ['dpm', 'ecommerce_navigation', 'promotions', 'assortment', 'reports', 'image_verification'].map(
        (module_code) => ({ module_code }),
      ),
    );
    expect(await get('/v1/licenses/role-modules/me', limited)).toEqual([
      { module_code: 'dpm' },
      { module_code: 'reports' },
    ]);
  });

  it('sellers: competitors and pivots of the license, never others', async () => {
    expect(await get('/v1/licenses/sellers/me', demo)).toEqual([
      sellers.norte,
      sellers.sur,
      sellers.cinco,
      sellers.lima,
    ]);
    expect(await get('/v1/licenses/sellers/me', limited)).toEqual([sellers.norte, sellers.cinco]);
  });

  it('sellers by countries', async () => {
    expect(await get('/v1/licenses/sellers-by-countries/me', demo)).toEqual([
      {
        country: 'CL',
        country_name: 'Chile',
        country_flag: '🇨🇱',
        sellers: [sellers.norte, sellers.sur, sellers.cinco],
      },
      { country: 'PE', country_name: 'Perú', country_flag: '🇵🇪', sellers: [sellers.lima] },
    ]);
    expect(await get('/v1/licenses/sellers-by-countries/me', limited)).toEqual([
      { country: 'CL', country_name: 'Chile', country_flag: '🇨🇱', sellers: [sellers.norte, sellers.cinco] },
    ]);
  });

  it('classifications: the licensed subtrees, nested', async () => {
    const c = fx.classifications;
    const tree = await get('/v1/licenses/classifications/me', demo);
    expect(tree).toEqual([
      {
        id: c.electro,
        name: 'Electrónica',
        level: 1,
        parent_id: null,
        children: [
          {
            id: c.audio,
            name: 'Audio',
            level: 2,
            parent_id: c.electro,
            children: [{ id: c.audifonos, name: 'Audífonos', level: 3, parent_id: c.audio, children: [] }],
          },
        ],
      },
      {
        id: c.hogar,
        name: 'Hogar',
        level: 1,
        parent_id: null,
        children: [
          {
            id: c.cocina,
            name: 'Cocina',
            level: 2,
            parent_id: c.hogar,
            children: [{ id: c.ollas, name: 'Ollas', level: 3, parent_id: c.cocina, children: [] }],
          },
        ],
      },
    ]);
    expect(await get('/v1/v2_classification', demo)).toEqual(tree);
    // no granted roots = the whole tree
    const whole = await get('/v1/v2_classification', limited);
    expect(whole.map((n: { name: string }) => n.name)).toEqual(['Electrónica', 'Hogar', 'Moda']);
  });

  it('a subtree granted below the root starts at that node', async () => {
    await ctx.db.pool.query(
      'insert into license_classifications (license_id, classification_id) values ($1, $2)',
      [fx.licenses.limited, fx.classifications.cocina],
    );
    try {
      const tree = await get('/v1/licenses/classifications/me', limited);
      expect(tree).toHaveLength(1);
      expect(tree[0]).toMatchObject({
        id: fx.classifications.cocina,
        parent_id: fx.classifications.hogar,
        level: 2,
      });
      expect(tree[0].children.map((n: { name: string }) => n.name)).toEqual(['Ollas']);
    } finally {
      await ctx.db.pool.query('delete from license_classifications where license_id = $1', [
        fx.licenses.limited,
      ]);
    }
  });

  it("category trees of the license's sellers only", async () => {
    const k = fx.categories;
    expect(await get('/v1/v2_category_tree', demo)).toEqual([
      {
        id: k.surTecnologia,
        name: 'Tecnología',
        seller_id: 116,
        level: 1,
        parent_id: null,
        children: [
          {
            id: k.surAudio,
            name: 'Audio',
            seller_id: 116,
            level: 2,
            parent_id: k.surTecnologia,
            children: [],
          },
        ],
      },
      { id: k.norteHogar, name: 'Hogar', seller_id: 125, level: 1, parent_id: null, children: [] },
    ]);
    const limitedTree = await get('/v1/v2_category_tree', limited);
    expect(limitedTree.map((n: { seller_id: number }) => n.seller_id)).toEqual([125]);
  });
});

describe('POST /v1/licenses/brands/me', () => {
  it('lists the brands published at the given sellers, marking own brands', async () => {
    const b = fx.brands;
    let res = await brands(demo, { sellers: [116] });
    expect(res.statusCode).toBe(200);
    // ghost is only on an unpublished listing
    expect(res.json()).toEqual([{ id: b.acme, name: 'Acme Fixture', own: true }]);

    res = await brands(demo, { sellers: [] });
    expect(res.json()).toEqual([
      { id: b.acme, name: 'Acme Fixture', own: true },
      { id: b.bolt, name: 'Bolt Fixture', own: false },
    ]);
    // no body field = empty list = every licensed seller
    expect((await brands(demo, {})).json()).toEqual(res.json());

    res = await brands(limited, { sellers: [] });
    expect(res.json()).toEqual([{ id: b.bolt, name: 'Bolt Fixture', own: false }]);
  });

  it('refuses sellers outside the license with 403', async () => {
    for (const [token, list] of [
      [demo, [300]],
      [demo, [116, 300]],
      [limited, [116]],
      [limited, [999]],
    ] as const) {
      const res = await brands(token, { sellers: list });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('seller_not_licensed');
    }
  });

  it('names a wrong field', async () => {
    const res = await brands(demo, { sellers: ['abc'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('sellers.0');
    const notList = await brands(demo, { sellers: 5 });
    expect(notList.statusCode).toBe(400);
    expect(notList.json().field).toBe('sellers');
  });
});

describe('authentication of the license endpoints', () => {
  it('answers 401 without a valid token', async () => {
    const urls = [
      '/v1/licenses/currencies/me',
      '/v1/licenses/pivots/me',
      '/v1/licenses/role-modules/me',
      '/v1/licenses/sellers/me',
      '/v1/licenses/sellers-by-countries/me',
      '/v1/licenses/classifications/me',
      '/v1/v2_classification',
      '/v1/v2_category_tree',
    ];
    for (const url of urls) {
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      const bad = await ctx.app.inject({ method: 'GET', url, headers: authHeader('a.b.c') });
      expect(bad.statusCode, url).toBe(401);
    }
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/licenses/brands/me',
      payload: { sellers: [] },
    });
    expect(res.statusCode).toBe(401);
  });

  it('checks the module and pivot headers against the license (403)', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v1/licenses/sellers/me',
      headers: { ...authHeader(limited), 'x-module-authorization': 'promotions' },
    });
    expect(res.statusCode).toBe(403);
    const ok = await ctx.app.inject({
      method: 'GET',
      url: '/v1/licenses/sellers/me',
      headers: { ...authHeader(limited), 'x-module-authorization': 'reports', 'x-pivot-id': '5' },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('GET /v1/app-config', () => {
  it('needs no login and returns the version and the home-card sellers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/app-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      version: '1.7.21',
      brandComparatorSellers: [5],
      imageVerificationSellers: [116, 125],
    });
  });

  it('its lists are what the web gates the pivot-gated screens with (home card and menu item)', async () => {
    const config = appConfig.parse((await ctx.app.inject({ method: 'GET', url: '/v1/app-config' })).json());
    const shown = (pivot: number | null) =>
      Object.keys(PIVOT_GATED_SCREENS).filter((s) => screenShownForPivot(s, pivot, config));
    expect(shown(116)).toEqual(['image-verification']);
    expect(shown(125)).toEqual(['image-verification']);
    expect(shown(5)).toEqual(['brand-price-comparator']);
    expect(shown(131)).toEqual([]);
    expect(shown(null)).toEqual([]);
  });
});

describe('buildTree', () => {
  it('nests rows, keeps their order, and makes orphans roots', () => {
    const rows = [
      { id: 2, parent_id: 1, n: 'b' },
      { id: 1, parent_id: null, n: 'a' },
      { id: 3, parent_id: 1, n: 'c' },
      { id: 4, parent_id: 99, n: 'orphan' },
    ];
    expect(buildTree(rows)).toEqual([
      {
        id: 1,
        parent_id: null,
        n: 'a',
        children: [
          { id: 2, parent_id: 1, n: 'b', children: [] },
          { id: 3, parent_id: 1, n: 'c', children: [] },
        ],
      },
      { id: 4, parent_id: 99, n: 'orphan', children: [] },
    ]);
  });
});
