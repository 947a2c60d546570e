/** Fixed paths of the shell (seed 000 §2). Screen paths live in app/routes.ts. */
export const PATHS = {
  login: '/login',
  resetPassword: '/reset-password',
  resetPasswordConfirm: '/password/reset/confirm/',
  dependenciesLoader: '/dependencies-loader',
  home: '/app/',
} as const;

/** Absolute path of a screen under /app/ ('dpm-by-brand' → '/app/dpm-by-brand'). */
export function appPath(path: string): string {
  return path === '' ? PATHS.home : `/app/${path.replace(/^\/+/, '')}`;
}
