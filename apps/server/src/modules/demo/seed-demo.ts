import type pg from 'pg';

export type DemoSize = 'small' | 'medium' | 'large';

export const DEMO_ACCOUNTS = [
  { email: 'demo@example.com', password: 'demo1234', description: 'seis módulos, pivotes 116 y 5, CLP' },
  { email: 'limited@example.com', password: 'demo1234', description: 'dpm y reportes, pivote 5' },
] as const;

/** Seeds the deterministic demo market (being written: see the data issue). */
export async function seedDemoMarket(
  _pool: pg.Pool,
  _opts: { size: DemoSize; log?: (m: string) => void },
): Promise<void> {
  throw new Error('seedDemoMarket is not written yet');
}
