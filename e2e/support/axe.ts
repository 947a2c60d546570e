import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// Accessibility held by the suite: every spec can call expectAccessible(page) on every screen it opens
// (built ones now, new ones as they come). axe-core runs in the page; any serious or critical violation
// fails the test, listed with the rule, its help text and the first offending elements.

export interface AxeIssue {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The serious and critical axe violations on the page as it is now. */
export async function seriousViolations(page: Page, opts: { exclude?: string[] } = {}): Promise<AxeIssue[]> {
  let builder = new AxeBuilder({ page });
  for (const sel of opts.exclude ?? []) builder = builder.exclude(sel);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

/** The two widths every screen and dialog is checked at (issue 31 item 6): a desktop and a phone. */
export const DESKTOP_VIEWPORT = { width: 1440, height: 900 };
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** Waits for the screen to settle (no progress indicator, transitions finished). */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await expect(page.locator('[role="progressbar"]'))
    .toHaveCount(0, { timeout: 20_000 })
    .catch(() => {});
  // An opening dialog or menu fades in: colours measured mid-transition are blended with the backdrop
  // (a false low contrast). Let running CSS transitions and animations finish first.
  // Endless ones (skeleton pulses, spinners) never finish and are left out; 2 s at most.
  await page.evaluate(() => {
    const finite = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
    const done = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    return Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
  });
}

/** Fails on any serious or critical violation on the screen as it is now, at its current width. */
async function expectAccessibleHere(page: Page, screen: string, opts: { exclude?: string[] }) {
  await settle(page);
  const issues = await seriousViolations(page, opts);
  expect(issues, `axe: violaciones graves en ${screen}`).toEqual([]);
}

/**
 * Fails on any serious or critical violation on the current screen, at 1440 px and at 390 px (the
 * screen or dialog as it is, resized; then the viewport it had). Waits for the screen to settle (no
 * progress indicator, transitions finished) at each width, so the check sees the loaded screen, not its
 * skeleton or a half-faded dialog. Tables that scroll sideways on a phone must be reachable with the
 * keyboard (scrollable-region-focusable), dialogs must fit.
 */
export async function expectAccessible(page: Page, screen: string, opts: { exclude?: string[] } = {}) {
  const before = page.viewportSize();
  try {
    for (const [viewport, width] of [
      [DESKTOP_VIEWPORT, '1440 px'],
      [PHONE_VIEWPORT, '390 px'],
    ] as const) {
      await page.setViewportSize(viewport);
      await expectAccessibleHere(page, `${screen} (${width})`, opts);
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/** The 390-px pass alone (a spec already at phone width); expectAccessible runs it everywhere. */
export async function expectAccessibleAtPhone(page: Page, screen: string, opts: { exclude?: string[] } = {}) {
  const before = page.viewportSize();
  await page.setViewportSize(PHONE_VIEWPORT);
  try {
    await expectAccessibleHere(page, `${screen} (390 px)`, opts);
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
