import { test as base, expect } from '@playwright/test';

// The specs' `test` (import it from here, never from @playwright/test): Playwright's, with a guard on the
// server's Content-Security-Policy (issue 26, finding 10) in every spec. Any page of the test's browser
// context that breaks the policy fails the test: Chromium logs each refusal on the console ("Refused to
// load … because it violates the following Content Security Policy directive …"), and a
// `securitypolicyviolation` listener added to every document logs the directive and the blocked URL too.

export * from '@playwright/test';

const CSP_MARK = 'Content Security Policy';

export interface CspOptions {
  /** The guard's own spec (csp.spec.ts) provokes a violation on purpose: collect, do not fail. */
  allowCspViolations: boolean;
}

export interface CspFixtures {
  /** The policy's violations seen so far in this test (console lines). */
  cspViolations: string[];
}

export const test = base.extend<CspOptions & CspFixtures>({
  allowCspViolations: [false, { option: true }],
  cspViolations: [
    async ({ context, allowCspViolations }, use, testInfo) => {
      const violations: string[] = [];
      await context.addInitScript((mark: string) => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(`${mark} violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}`);
        });
      }, CSP_MARK);
      context.on('console', (msg) => {
        if (msg.type() === 'error' && msg.text().includes(CSP_MARK))
          violations.push(`${msg.location().url || '?'}: ${msg.text()}`);
      });
      await use(violations);
      if (!allowCspViolations) {
        if (violations.length) await testInfo.attach('csp-violations', { body: violations.join('\n') });
        expect(violations, 'violations of the Content-Security-Policy in the browser').toEqual([]);
      }
    },
    { auto: true },
  ],
});
