import { describe, expect, it } from 'vitest';
import { safeReturnPath, withReturnPath } from './paths.js';

describe('return path after login', () => {
  it('keeps a same-origin path under /app with its query', () => {
    expect(safeReturnPath('/app/dpm-by-brand?brands=18')).toBe('/app/dpm-by-brand?brands=18');
    expect(safeReturnPath('/app/product/3320?period=30')).toBe('/app/product/3320?period=30');
  });
  it('refuses other origins, schemes, pages outside the frame and Home', () => {
    for (const raw of [
      '//evil.example/app/x',
      'https://evil.example/app/x',
      'javascript:alert(1)',
      '/\\evil.example',
      '/login',
      '/application',
      '/app/',
      '',
      null,
    ])
      expect(safeReturnPath(raw), String(raw)).toBeNull();
  });
  it('builds /login?next=… only when there is somewhere to return', () => {
    expect(withReturnPath('/login', '/app/dpm-by-brand?brands=18')).toBe(
      '/login?next=%2Fapp%2Fdpm-by-brand%3Fbrands%3D18',
    );
    expect(withReturnPath('/login', '/app/')).toBe('/login');
    expect(withReturnPath('/login', '//evil.example')).toBe('/login');
  });
});
