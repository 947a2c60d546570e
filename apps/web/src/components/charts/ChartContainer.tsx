import ShowChartIcon from '@mui/icons-material/ShowChart';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export type LoadStatus = 'pending' | 'error' | 'ready';

export interface ChartContainerProps {
  status: LoadStatus;
  /** Ready but nothing to draw. */
  empty?: boolean;
  /** What to change to see something (shown when empty). */
  emptyText?: string;
  /** Shown in place of the chart when the load failed (the snackbar carries the seed's message). */
  errorText?: string;
  onRetry?: () => void;
  height?: number;
  children: ReactNode;
}

/** The three states of a chart: a skeleton while loading, a sentence when empty or failed, the chart. */
export function ChartContainer({
  status,
  empty = false,
  emptyText = 'No hay datos para el período seleccionado.',
  errorText = 'No se pudo cargar el gráfico.',
  onRetry,
  height = 320,
  children,
}: ChartContainerProps) {
  if (status === 'pending') {
    return (
      <Box
        aria-busy="true"
        aria-live="polite"
        sx={{ height, display: 'flex', flexDirection: 'column', gap: 1 }}
      >
        <Skeleton variant="rounded" sx={{ flex: 1 }} />
        <Skeleton variant="text" width="40%" sx={{ alignSelf: 'center' }} />
      </Box>
    );
  }
  if (status === 'error' || empty) {
    return (
      <Box
        sx={{
          height,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 1,
          border: 1,
          borderStyle: 'dashed',
          borderColor: 'divider',
          borderRadius: 2,
          color: 'text.secondary',
          px: 2,
          textAlign: 'center',
        }}
      >
        <ShowChartIcon color="disabled" fontSize="large" />
        <Typography variant="body2">{status === 'error' ? errorText : emptyText}</Typography>
        {status === 'error' && onRetry ? (
          <Button size="small" onClick={onRetry}>
            Reintentar
          </Button>
        ) : null}
      </Box>
    );
  }
  return <>{children}</>;
}
