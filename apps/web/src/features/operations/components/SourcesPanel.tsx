import CloudDownloadOutlinedIcon from '@mui/icons-material/CloudDownloadOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type FeedSource, formatDateTime, type ImportProgress } from '@vigia/domain';
import { useState } from 'react';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { notify } from '../../../lib/notifier.js';
import { deleteSource, importNow, opsKeys, useSellers, useSources } from '../api/operations.js';
import { FORMAT_LABELS, OT } from '../lib/texts.js';
import { MappingDialog } from './MappingDialog.js';
import { ListState, Section } from './parts.js';
import { RunState } from './RunState.js';
import { SourceDialog } from './SourceDialog.js';

/** Feed sources: last run with live progress, import now, column mapping, removal. */
export function SourcesPanel({ progress }: { progress: Record<number, ImportProgress> }) {
  const qc = useQueryClient();
  const sources = useSources();
  const sellers = useSellers();
  const [adding, setAdding] = useState(false);
  const [mapping, setMapping] = useState<FeedSource | null>(null);
  const [starting, setStarting] = useState<number | null>(null);
  const items = sources.data?.items ?? [];
  const sellerName = (id: number) => sellers.data?.items.find((s) => s.id === id)?.name ?? String(id);

  const start = async (s: FeedSource) => {
    setStarting(s.id);
    try {
      await importNow(s.id);
      await qc.invalidateQueries({ queryKey: opsKeys.all });
    } catch {
      // said by the API client
    } finally {
      setStarting(null);
    }
  };
  const remove = async (s: FeedSource) => {
    try {
      await deleteSource(s.id);
      notify(OT.sourceDeleted, 'success');
      await qc.invalidateQueries({ queryKey: opsKeys.all });
    } catch {
      // said by the API client
    }
  };

  const state = ListState({
    query: sources,
    empty: !items.length,
    loading: OT.sourcesLoading,
    error: OT.sourcesError,
    emptyTitle: OT.sourcesEmpty,
    emptyBody: OT.sourcesEmptyBody,
    emptyIcon: <CloudDownloadOutlinedIcon />,
  });
  return (
    <Section
      id="ops-sources"
      title={OT.sourcesTitle}
      actions={
        <Button variant="contained" onClick={() => setAdding(true)}>
          {OT.addSource}
        </Button>
      }
    >
      {state ?? (
        <ScrollTable label={OT.sourcesTitle} outlined>
          <Table size="small" aria-label={OT.sourcesTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{OT.col.source}</TableCell>
                <TableCell>{OT.col.seller}</TableCell>
                <TableCell>{OT.col.format}</TableCell>
                <TableCell>{OT.col.schedule}</TableCell>
                <TableCell>{OT.col.last}</TableCell>
                <TableCell align="right">{OT.col.actions}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((s) => {
                const live = s.last_run ? progress[s.last_run.id] : undefined;
                const going = ['queued', 'running'].includes(live?.status ?? s.last_run?.status ?? '');
                return (
                  <TableRow key={s.id} data-testid="ops-source" data-source-name={s.name}>
                    <TableCell>
                      {s.name}
                      <Typography variant="caption" color="text.secondary" component="div">
                        {s.crawl ? (
                          OT.crawlSummary(s.crawl)
                        ) : (
                          <>
                            {s.origin === 'url' ? s.url : OT.originUpload} ·{' '}
                            {s.mode === 'full' ? OT.modeFull : OT.modeDelta}
                          </>
                        )}
                      </Typography>
                    </TableCell>
                    <TableCell>{sellerName(s.seller_id)}</TableCell>
                    <TableCell>{FORMAT_LABELS[s.format]}</TableCell>
                    <TableCell>{s.schedule ?? '—'}</TableCell>
                    <TableCell>
                      {s.last_run ? (
                        <>
                          <RunState run={s.last_run} live={live} />
                          <Typography variant="caption" color="text.secondary">
                            {formatDateTime(s.last_run.created_at)}
                          </Typography>
                        </>
                      ) : (
                        OT.noRuns
                      )}
                    </TableCell>
                    <TableCell align="right">
                      <Stack direction="row" gap={1} justifyContent="flex-end" flexWrap="wrap">
                        <Button
                          size="small"
                          variant="contained"
                          onClick={() => void start(s)}
                          disabled={going || starting === s.id || (s.origin === 'upload' && !s.has_file)}
                          aria-label={`${OT.importNow}: ${s.name}`}
                        >
                          {going ? OT.importing : OT.importNow}
                        </Button>
                        {s.kind === 'feed' && (
                          <Button
                            size="small"
                            onClick={() => setMapping(s)}
                            aria-label={`${OT.mapColumns}: ${s.name}`}
                          >
                            {OT.mapColumns}
                          </Button>
                        )}
                        <Button
                          size="small"
                          color="error"
                          onClick={() => void remove(s)}
                          aria-label={`${OT.deleteSource}: ${s.name}`}
                        >
                          {OT.deleteSource}
                        </Button>
                      </Stack>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
      {adding && (
        <SourceDialog
          onClose={() => setAdding(false)}
          onCreated={(s) => {
            setAdding(false);
            if (s.kind === 'feed' && s.format !== 'merchant-xml' && (s.has_file || s.origin === 'url'))
              setMapping(s);
          }}
        />
      )}
      {mapping && <MappingDialog source={mapping} onClose={() => setMapping(null)} />}
    </Section>
  );
}
