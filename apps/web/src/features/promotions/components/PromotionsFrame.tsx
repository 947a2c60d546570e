import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { formatDate } from '@vigia/domain';
import { type ReactNode, useState } from 'react';
import { EmptyState, ErrorState } from '../../../components/data/DataTable.js';
import { type FilterField, FilterPanel } from '../../../components/filters/index.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { isApiError } from '../../../lib/api-client.js';
import type { PromotionModuleState } from '../api/queries.js';
import { downloadPromotions } from '../api/requests.js';
import type { PromotionSearch } from '../lib/use-promotion-search.js';

/** The filters a promotions screen offers: what the promotions read model can answer. */
export const PROMOTION_FIELDS: readonly FilterField[] = [
  'classificationsIds',
  'sellersIds',
  'currency',
  'dates',
];

export type DownloadKind = 'level' | 'duration' | 'type' | 'range' | 'scatter-plot';

/** The window an answer covers, as a sentence. */
export function windowText(a: { from_date: string; to_date: string } | undefined): string | null {
  return a ? `Período del ${formatDate(a.from_date)} al ${formatDate(a.to_date)}` : null;
}

/**
 * A promotions screen: header, the filter panel, the screen's XLSX download and its body in one of
 * four states — invalid filters (nothing sent), loading, failed (the raw error kept under items), ready.
 */
export function PromotionsFrame({
  p,
  description,
  download,
  state,
  isEmpty,
  window,
  onRetry,
  children,
}: {
  p: PromotionSearch;
  description: string;
  download: DownloadKind;
  state: PromotionModuleState<unknown>;
  isEmpty: boolean;
  window?: string | null;
  onRetry: () => void;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const filters = p.scope.filters;
  const save = async () => {
    if (!filters) return;
    setBusy(true);
    try {
      await downloadPromotions(download, filters as Record<string, unknown>, p.scope.pivotId);
    } catch {
      // reported in the snackbar
    } finally {
      setBusy(false);
    }
  };
  let body: ReactNode;
  if (p.preparing || state.pending) {
    body = (
      <Paper variant="outlined" sx={{ p: 4, display: 'flex', justifyContent: 'center' }} aria-busy="true">
        <CircularProgress aria-label="Cargando promociones" />
      </Paper>
    );
  } else if (state.invalidFields) {
    body = (
      <Alert severity="info" role="status">
        Completa los campos marcados en los filtros (Divisa, eCommerce y Clasificaciones) y presiona Buscar.
      </Alert>
    );
  } else if (state.error) {
    const raw = state.items;
    body = (
      <Paper variant="outlined">
        <ErrorState
          message={isApiError(raw) ? raw.message : 'No se pudieron obtener las promociones.'}
          onRetry={onRetry}
        />
      </Paper>
    );
  } else if (isEmpty) {
    body = (
      <Paper variant="outlined">
        <EmptyState
          title="No hay promociones para estos filtros"
          hint="Prueba con otro período, otras clasificaciones u otros eCommerce."
        />
      </Paper>
    );
  } else body = children;

  return (
    <Box>
      <PageHeader
        description={description}
        actions={
          <Button
            variant="outlined"
            startIcon={busy ? <CircularProgress size={16} /> : <FileDownloadOutlinedIcon />}
            disabled={!filters || busy || state.pending || state.error}
            onClick={save}
          >
            Descargar XLSX
          </Button>
        }
      />
      <Stack spacing={2}>
        <FilterPanel search={p.search} fields={PROMOTION_FIELDS} busy={state.pending} />
        {window && !state.pending && !state.error && (
          <Typography variant="body2" color="text.secondary">
            {window}
          </Typography>
        )}
        {body}
      </Stack>
    </Box>
  );
}
