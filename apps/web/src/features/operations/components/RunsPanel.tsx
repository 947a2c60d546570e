import HistoryRoundedIcon from '@mui/icons-material/HistoryRounded';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDateTime, formatNumber, type ImportProgress, type ImportRun } from '@vigia/domain';
import { useState } from 'react';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { notify } from '../../../lib/notifier.js';
import { downloadRejections, useRuns, useSources } from '../api/operations.js';
import { formatDuration, OT } from '../lib/texts.js';
import { CrawlPagesDialog } from './CrawlPagesDialog.js';
import { ListState, Section } from './parts.js';
import { RunState } from './RunState.js';

/** Import runs (last 100): counts, duration, rejected rows as CSV. */
export function RunsPanel({ progress }: { progress: Record<number, ImportProgress> }) {
  const runs = useRuns();
  const sources = useSources();
  const items = runs.data?.items ?? [];
  const [pagesOf, setPagesOf] = useState<ImportRun | null>(null);
  const sourceName = (id: number | null) =>
    id === null ? OT.trigger.api : (sources.data?.items.find((s) => s.id === id)?.name ?? `#${id}`);
  const state = ListState({
    query: runs,
    empty: !items.length,
    loading: OT.runsLoading,
    error: OT.runsError,
    emptyTitle: OT.runsEmpty,
    emptyIcon: <HistoryRoundedIcon />,
  });
  return (
    <Section id="ops-runs" title={OT.runsTitle}>
      {state ?? (
        <ScrollTable label={OT.runsTitle} outlined>
          <Table size="small" aria-label={OT.runsTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{OT.col.source}</TableCell>
                <TableCell>{OT.col.status}</TableCell>
                <TableCell>{OT.col.when}</TableCell>
                <TableCell align="right">{OT.col.duration}</TableCell>
                <TableCell align="right">{OT.col.read}</TableCell>
                <TableCell align="right">{OT.col.changed}</TableCell>
                <TableCell align="right">{OT.col.rejected}</TableCell>
                <TableCell align="right">{OT.col.actions}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((r) => (
                <TableRow key={r.id} data-testid="ops-run" data-run-id={r.id}>
                  <TableCell>
                    {sourceName(r.source_id)}
                    <div>{OT.trigger[r.trigger] ?? r.trigger}</div>
                  </TableCell>
                  <TableCell>
                    <RunState run={r} live={progress[r.id]} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(r.started_at ?? r.created_at)}
                  </TableCell>
                  <TableCell align="right">{formatDuration(r.duration_ms)}</TableCell>
                  <TableCell align="right">{formatNumber(r.rows_read)}</TableCell>
                  <TableCell align="right">{formatNumber(r.rows_changed)}</TableCell>
                  <TableCell align="right" data-testid="run-rejected">
                    {formatNumber(r.rows_rejected)}
                  </TableCell>
                  <TableCell align="right">
                    {r.pages && (
                      <Button
                        size="small"
                        onClick={() => setPagesOf(r)}
                        aria-label={`${OT.viewPages} (#${r.id})`}
                      >
                        {OT.viewPages}
                      </Button>
                    )}
                    {r.rows_rejected > 0 && (
                      <Button
                        size="small"
                        onClick={() => void downloadRejections(r.id).catch(() => notify(OT.failed))}
                        aria-label={`${OT.downloadRejections} (${formatNumber(r.rows_rejected)})`}
                      >
                        {OT.downloadRejections}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
      {pagesOf && <CrawlPagesDialog run={pagesOf} onClose={() => setPagesOf(null)} />}
    </Section>
  );
}
