import { esES } from '@mui/material/locale';
import { alpha, createTheme, type ThemeOptions } from '@mui/material/styles';
import { formatNumber } from '@vigia/domain';

// Vigía's look: purple primary, pink secondary, quiet surfaces, compact tables with tabular numbers.

import { BRAND } from '../lib/brand.js';

export { BRAND };

import { POSITION } from '../components/data/position-colors.js';

export { POSITION };

declare module '@mui/material/styles' {
  interface Palette {
    cheaper: Palette['primary'];
    dearer: Palette['primary'];
  }
  interface PaletteOptions {
    cheaper?: PaletteOptions['primary'];
    dearer?: PaletteOptions['primary'];
  }
}

const FOCUS_RING = { outline: `3px solid ${BRAND.purpleDark}`, outlineOffset: 2 } as const;

const FONT =
  '"Inter", "Segoe UI", "Roboto", "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';

/** Every pager counts in es-CL ("1–10 de 2.652"), whatever the feature. */
const PAGER_ES_CL: ThemeOptions = {
  components: {
    MuiTablePagination: {
      defaultProps: {
        labelRowsPerPage: 'Filas por página',
        labelDisplayedRows: ({ from, to, count }) =>
          `${formatNumber(from)}–${formatNumber(to)} de ${count === -1 ? `más de ${formatNumber(to)}` : formatNumber(count)}`,
      },
      // On a phone the pager wraps instead of pushing its "next page" arrow out of sight.
      styleOverrides: {
        toolbar: ({ theme }) => ({
          [theme.breakpoints.down('sm')]: { flexWrap: 'wrap', justifyContent: 'flex-end', paddingLeft: 8 },
        }),
        spacer: ({ theme }) => ({ [theme.breakpoints.down('sm')]: { display: 'none' } }),
      },
    },
  },
};

export const theme = createTheme(
  {
    palette: {
      mode: 'light',
      primary: { main: BRAND.purple, dark: BRAND.purpleDark, light: BRAND.purpleLight, contrastText: '#fff' },
      secondary: { main: BRAND.pink, light: BRAND.pinkLight, contrastText: '#fff' },
      success: { main: '#2e7d32' },
      error: { main: '#d32f2f' },
      // filled chips ("Oferta", "Por cantidad") carry white text: 4.5:1 at least
      warning: { main: '#b45309' },
      info: { main: '#0277bd' },
      cheaper: { main: POSITION.cheaper.main, dark: POSITION.cheaper.text, contrastText: '#fff' },
      dearer: { main: POSITION.dearer.main, dark: POSITION.dearer.text, contrastText: '#fff' },
      background: { default: BRAND.surface, paper: '#ffffff' },
      text: { primary: BRAND.ink, secondary: '#5f5673' },
      divider: 'rgba(74, 20, 140, 0.12)',
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: FONT,
      fontSize: 14,
      h1: { fontSize: '2rem', fontWeight: 700, letterSpacing: '-0.02em' },
      h2: { fontSize: '1.6rem', fontWeight: 700, letterSpacing: '-0.01em' },
      h3: { fontSize: '1.35rem', fontWeight: 700 },
      h4: { fontSize: '1.5rem', fontWeight: 700, letterSpacing: '-0.01em' },
      h5: { fontSize: '1.15rem', fontWeight: 650 },
      h6: { fontSize: '1rem', fontWeight: 650 },
      subtitle1: { fontWeight: 600 },
      subtitle2: { fontWeight: 600, fontSize: '0.8125rem' },
      overline: { fontWeight: 700, letterSpacing: '0.08em', fontSize: '0.6875rem' },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          body: { WebkitFontSmoothing: 'antialiased' },
          '.num, td.num, th.num': { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
          // A visible keyboard focus everywhere (not only MUI's ripple): a ring around whatever has focus.
          ':focus-visible': FOCUS_RING,
        },
      },
      MuiButtonBase: {
        styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { borderRadius: 8, paddingInline: 16 } },
      },
      MuiPaper: {
        defaultProps: { elevation: 0 },
        styleOverrides: { outlined: { borderColor: 'rgba(74, 20, 140, 0.12)' } },
      },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: { root: { borderRadius: 14 } },
      },
      MuiAppBar: {
        defaultProps: { elevation: 0 },
        // on the purple bar the ring is white
        styleOverrides: { root: { '& .Mui-focusVisible, & :focus-visible': { outlineColor: '#ffffff' } } },
      },
      MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      MuiSelect: { defaultProps: { size: 'small' } },
      MuiFormControl: { defaultProps: { size: 'small' } },
      MuiTable: { defaultProps: { size: 'small' } },
      // A scrolling table holds its absolutely placed pieces (visually hidden header text): without a
      // positioned container they widen the whole page on a phone.
      MuiTableContainer: { styleOverrides: { root: { position: 'relative' } } },
      MuiTableCell: {
        styleOverrides: {
          root: { fontVariantNumeric: 'tabular-nums', borderColor: 'rgba(74, 20, 140, 0.08)' },
          head: {
            fontWeight: 650,
            fontSize: '0.75rem',
            textTransform: 'uppercase',
            letterSpacing: '0.04em',
            color: '#5f5673',
            backgroundColor: '#faf8fd',
          },
          sizeSmall: { paddingTop: 6, paddingBottom: 6 },
        },
      },
      MuiTableRow: {
        styleOverrides: {
          root: { '&.MuiTableRow-hover:hover': { backgroundColor: alpha(BRAND.purple, 0.04) } },
        },
      },
      MuiChip: {
        styleOverrides: {
          root: { fontWeight: 600 },
          // pink text on a selected (tinted) table row fell under 4.5:1; the darker pink holds it
          outlinedSecondary: ({ theme }) => ({ color: theme.palette.secondary.dark }),
        },
      },
      MuiTooltip: { defaultProps: { arrow: true } },
      MuiLinearProgress: { styleOverrides: { root: { borderRadius: 4 } } },
      MuiDialog: { styleOverrides: { paper: { borderRadius: 16 } } },
      MuiListItemButton: {
        styleOverrides: {
          root: {
            borderRadius: 8,
            '&.Mui-selected': {
              backgroundColor: alpha(BRAND.purple, 0.1),
              color: BRAND.purple,
              '& .MuiListItemIcon-root': { color: BRAND.purple },
            },
            '&.Mui-selected:hover': { backgroundColor: alpha(BRAND.purple, 0.14) },
          },
        },
      },
    },
  },
  esES,
  // after esES, whose own pager labels (unformatted "1–25 de 1449") would otherwise win the merge
  PAGER_ES_CL,
);

/** sx for numeric table cells and figures: right-aligned, tabular digits. */
export const numericSx = {
  textAlign: 'right',
  fontVariantNumeric: 'tabular-nums',
  whiteSpace: 'nowrap',
} as const;
