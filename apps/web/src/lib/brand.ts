// Vigía's brand colours: the theme (app/theme.ts) is built from them, and screens that paint the brand
// (login panel, home header) read them here, not from app/.

export const BRAND = {
  purple: '#6a1b9a',
  purpleDark: '#4a148c',
  purpleLight: '#9c4dcc',
  pink: '#d81b60',
  pinkLight: '#ff5c8d',
  ink: '#1f1535',
  surface: '#f6f4fa',
  /** The brand gradient (login panel, product mark). */
  gradient: 'linear-gradient(135deg, #4a148c 0%, #6a1b9a 42%, #ad1457 78%, #d81b60 100%)',
} as const;
