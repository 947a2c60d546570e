import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SnackbarHost } from '../components/shell/SnackbarHost.js';
import { queryClient } from '../lib/query-client.js';
import { theme } from './theme.js';

/** Theme, query cache and the snackbar around the whole app. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        {children}
        <SnackbarHost />
      </QueryClientProvider>
    </ThemeProvider>
  );
}
