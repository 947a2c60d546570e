import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { DATA_DIR } from '../playwright.config.js';

export const DEMO = { email: 'demo@example.com', password: 'demo1234' };
export const LIMITED = { email: 'limited@example.com', password: 'demo1234' };

/** Logs in through the login screen and waits for the home screen. */
export async function login(page: Page, user: { email: string; password: string } = DEMO) {
  await page.goto('/login');
  await page.getByLabel(/correo/i).fill(user.email);
  await page
    .getByLabel(/contraseña/i)
    .first()
    .fill(user.password);
  await page.getByRole('button', { name: /ingresar/i }).click();
  await page.waitForURL(/\/app\/?$/, { timeout: 30_000 });
}

/** Decodes a quoted-printable MIME body (soft line breaks and =XX escapes). */
export function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The newest .eml in the outbox sent to `to` after `since`; waits for it. */
export async function waitForEmail(to: string, since: number): Promise<string> {
  const dir = join(DATA_DIR, 'outbox');
  for (let i = 0; i < 100; i++) {
    try {
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
        .filter((x) => x.t >= since - 1000)
        .sort((a, b) => b.t - a.t);
      for (const { f } of files) {
        const raw = readFileSync(join(dir, f), 'utf8');
        if (raw.toLowerCase().includes(to.toLowerCase())) return decodeQuotedPrintable(raw);
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no e-mail to ${to} in ${dir}`);
}

export async function expectSnackbar(page: Page, text: string | RegExp) {
  await expect(page.getByText(text).first()).toBeVisible();
}
