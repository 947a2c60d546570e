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
    expect(res.json()).toEqual({
      status: 'ok',
      version: '1.7.21',
      database: 'external',
      databaseStatus: 'up',
    });
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

describe('web app serving', () => {
  it('serves files, falls back to index.html for app paths, and 404s missing assets and API paths', async () => {
    const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dist = mkdtempSync(join(tmpdir(), 'vigia-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Vigía</title>');
    const web = await createTestContext({ env: { WEB_DIST: dist } });
    try {
      // written after start: served without a restart
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'assets', 'app-123.js'), 'console.log(1)');
      const asset = await web.app.inject({ method: 'GET', url: '/assets/app-123.js' });
      expect(asset.statusCode, asset.body).toBe(200);
      expect(asset.body).toBe('console.log(1)');

      for (const url of [
        '/',
        '/login',
        '/app/dpm-by-brand',
        '/password/reset/confirm/?uid=1&token=x',
        // under /app a dot is part of a (bad) route, not a file: the app shows its not-found view
        '/app/product/3320.5',
        '/app/dpm-by-brand.xlsx',
      ]) {
        const res = await web.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<title>Vigía</title>');
      }
      const missing = await web.app.inject({ method: 'GET', url: '/assets/gone-999.js' });
      expect(missing.statusCode).toBe(404);
      const api = await web.app.inject({ method: 'GET', url: '/v1/nope' });
      expect(api.statusCode).toBe(404);
      expect(api.json().code).toBe('not_found');
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
