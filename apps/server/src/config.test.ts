import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const cfg = loadConfig({ DATA_DIR: '/tmp/vigia-cfg-test' });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.HOST).toBe('127.0.0.1');
    expect(cfg.PUBLIC_URL).toBe('http://localhost:8080');
    expect(cfg.DEMO_DATA).toBe('small');
    expect(cfg.BRAND_COMPARATOR_SELLERS).toEqual([5]);
    expect(cfg.IMAGE_VERIFICATION_SELLERS).toEqual([116, 125]);
    expect(cfg.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    // the generated secret is stable for the same data directory
    expect(loadConfig({ DATA_DIR: '/tmp/vigia-cfg-test' }).JWT_SECRET).toBe(cfg.JWT_SECRET);
  });

  it('names the variable of a wrong value', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEMO_DATA: 'huge' })).toThrow(/DEMO_DATA/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ IMAGE_VERIFICATION_SELLERS: '116;125' })).toThrow(/IMAGE_VERIFICATION_SELLERS/);
  });
});
