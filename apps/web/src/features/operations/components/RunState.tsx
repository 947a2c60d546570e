import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ImportProgress, ImportRun } from '@vigia/domain';
import { OT } from '../lib/texts.js';

const STATUS_COLOR = { queued: 'default', running: 'info', succeeded: 'success', failed: 'error' } as const;

/** A run's state; while it runs, the live counts from the exporter channel. */
export function RunState({ run, live }: { run: ImportRun; live?: ImportProgress }) {
  const status = live?.status ?? run.status;
  const read = live?.rows_read ?? run.rows_read;
  const written = live?.rows_written ?? run.rows_written;
  const rejected = live?.rows_rejected ?? run.rows_rejected;
  const going = status === 'queued' || status === 'running';
  return (
    <Box sx={{ minWidth: 200 }} data-testid="run-state" data-status={status}>
      <Chip size="small" variant="outlined" label={OT.status[status]} color={STATUS_COLOR[status]} />
      {going && <LinearProgress sx={{ mt: 1 }} aria-label={OT.importing} />}
      <Typography
        variant="caption"
        color="text.secondary"
        component="div"
        role={going ? 'status' : undefined}
      >
        {OT.progress(read, written, rejected)}
      </Typography>
      {run.pages && (
        <Typography variant="caption" color="text.secondary" component="div" data-testid="crawl-counts">
          {OT.crawlProgress(run.pages)}
        </Typography>
      )}
      {(status === 'failed' || run.pages) && (live?.error ?? run.error) && (
        <Typography variant="caption" color="error" component="div" sx={{ maxWidth: 360 }}>
          {live?.error ?? run.error}
        </Typography>
      )}
    </Box>
  );
}
