import { login } from '../support/helpers.js';
import { expect, test } from '../support/test.js';

// The Content-Security-Policy guard of every spec (support/test.ts) sees a violation when there is one:
// here one is provoked on purpose (an inline script, which the server's policy refuses), so the guard
// collects instead of failing. The other specs run the screens with the guard failing on any violation.

test.use({ allowCspViolations: true });

test('the app is served with its CSP, and the guard catches an inline script the policy refuses', async ({
  page,
  cspViolations,
}) => {
  const res = await page.goto('/login');
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(res?.headers()['x-frame-options']).toBe('DENY');
  expect(res?.headers()['x-content-type-options']).toBe('nosniff');
  await login(page);
  expect(cspViolations).toEqual([]); // the login and the home screen pass it
  const ran = await page.evaluate(() => {
    const w = window as unknown as { __inlineRan?: boolean };
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.body.appendChild(s);
    return w.__inlineRan === true;
  });
  expect(ran).toBe(false); // refused by script-src 'self'
  await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
  expect(cspViolations.join('\n')).toMatch(/script-src/);
});
