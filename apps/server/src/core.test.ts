import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './test/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('server core', () => {
  it('answers /health once the database is ready', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: '1.7.21', database: 'external' });
  });

  it('answers an unknown API path with a JSON 404 in the one error shape', async () => {
    for (const url of ['/v1/does-not-exist', '/v2/nothing/here']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      const body = res.json();
      expect(body.code).toBe('not_found');
      expect(body.detail).toBe('No se ha encontrado el recurso solicitado.');
      expect(typeof body.requestId).toBe('string');
    }
  });

  it('serves the OpenAPI document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info.version).toBe('1.7.21');
  });

  it('applied the schema migrations', async () => {
    const { rows } = await ctx.db.pool.query('select name from schema_migrations order by name');
    expect(rows[0].name).toBe('001_init.sql');
  });
});
