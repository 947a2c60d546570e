import { Alert, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useMatchHistory, useReportMatch } from '../api/queries.js';
import { MATCH_TEXT as T } from '../lib/texts.js';
import { PairView } from './PairView.js';

/**
 * A product's matches on its page (issue 29): each other listing of its group with the reason and the
 * parts, and "Reportar coincidencia incorrecta" (the membership goes back to review). The group's anchor
 * cannot leave it: reporting it reports this product's own membership.
 */
export function ProductMatches({ productId }: { productId: number }) {
  const history = useMatchHistory(productId);
  const report = useReportMatch();
  const [done, setDone] = useState<string | null>(null);
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 3 }} data-testid="product-matches">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {T.productMatches}
      </Typography>
      {done && (
        <Alert severity="success" sx={{ mb: 1 }}>
          {done}
        </Alert>
      )}
      {history.isPending ? (
        <Skeleton variant="rounded" height={120} />
      ) : history.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void history.refetch()}>
              {T.retry}
            </Button>
          }
        >
          {T.error}
        </Alert>
      ) : !history.data.matches.length ? (
        <Typography color="text.secondary">{T.noProductMatches}</Typography>
      ) : (
        <Stack spacing={3}>
          {history.data.matches.map((m) => (
            <Stack key={`${m.groupId}-${m.productId}`} spacing={1}>
              <PairView item={m} />
              {m.status === 'confirmed' && (
                <Button
                  size="small"
                  color="error"
                  variant="outlined"
                  sx={{ alignSelf: 'flex-start' }}
                  disabled={report.isPending}
                  onClick={() =>
                    report.mutate(
                      { productId: m.source === 'anchor' ? productId : m.productId, groupId: m.groupId },
                      { onSuccess: () => setDone(T.reported) },
                    )
                  }
                >
                  {T.report}
                </Button>
              )}
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
