/**
 * The demo accounts the seed creates (seed-demo.ts), printed at start-up (main.ts) — a module of its own so
 * that an API process prints them without loading the demo generator.
 */
export const DEMO_ACCOUNTS = [
  { email: 'demo@example.com', password: 'demo1234', description: 'seis módulos, pivotes 116 y 5, CLP' },
  { email: 'limited@example.com', password: 'demo1234', description: 'dpm y reportes, pivote 5' },
] as const;
