import ArticleOutlinedIcon from '@mui/icons-material/ArticleOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { CRAWL_PAGE_STATES, type ImportRun } from '@vigia/domain';
import { useState } from 'react';
import { usePhone } from '../../../components/page/use-phone.js';
import { notify } from '../../../lib/notifier.js';
import { type CrawlPageState, opsKeys, retryFailed, useRunPages } from '../api/operations.js';
import { OT } from '../lib/texts.js';
import { ListState } from './parts.js';

const PAGE_SIZE = 50;

/** The pages of a crawl run, by state, with their HTTP status and reason (paged); "Reintentar fallidas". */
export function CrawlPagesDialog({ run, onClose }: { run: ImportRun; onClose: () => void }) {
  // a phone gets the whole screen for the list (issue 31 item 6)
  const phone = usePhone();
  const qc = useQueryClient();
  const [state, setState] = useState<CrawlPageState | ''>(run.pages?.failed ? 'failed' : '');
  const [page, setPage] = useState(0);
  const [busy, setBusy] = useState(false);
  const pages = useRunPages(run.id, state, page + 1, PAGE_SIZE);
  const items = pages.data?.items ?? [];
  const done = run.status === 'succeeded' || run.status === 'failed';

  const retry = async () => {
    setBusy(true);
    try {
      await retryFailed(run.id);
      notify(OT.retryQueued, 'success');
      await qc.invalidateQueries({ queryKey: opsKeys.all });
      onClose();
    } catch {
      // said by the API client
    } finally {
      setBusy(false);
    }
  };

  const listState = ListState({
    query: pages,
    empty: !items.length,
    loading: OT.pagesLoading,
    error: OT.pagesError,
    emptyTitle: OT.pagesEmpty,
    emptyIcon: <ArticleOutlinedIcon />,
  });
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="crawl-pages-title"
      fullWidth
      maxWidth="lg"
      fullScreen={phone}
    >
      <DialogTitle id="crawl-pages-title">{OT.pagesTitle(run.id)}</DialogTitle>
      <DialogContent>
        <Stack direction="row" gap={2} alignItems="center" sx={{ pt: 1, mb: 2 }} flexWrap="wrap">
          <TextField
            select
            size="small"
            id="crawl-pages-state"
            label={OT.pagesFilter}
            value={state}
            onChange={(e) => {
              setState(e.target.value as CrawlPageState | '');
              setPage(0);
            }}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">{OT.pagesAll}</MenuItem>
            {CRAWL_PAGE_STATES.map((s) => (
              <MenuItem key={s} value={s}>
                {OT.pageState[s]}
              </MenuItem>
            ))}
          </TextField>
          {run.pages && (
            <Typography variant="body2" color="text.secondary">
              {OT.crawlProgress(run.pages)}
            </Typography>
          )}
        </Stack>
        {listState ?? (
          <>
            <Table size="small" aria-label={OT.pagesTitle(run.id)}>
              <TableHead>
                <TableRow>
                  <TableCell align="right">#</TableCell>
                  <TableCell>{OT.col.url}</TableCell>
                  <TableCell>{OT.col.status}</TableCell>
                  <TableCell align="right">{OT.col.http}</TableCell>
                  <TableCell>{OT.col.reason}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((p) => (
                  <TableRow key={p.seq} data-testid="crawl-page" data-state={p.state}>
                    <TableCell align="right">{p.seq}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all', maxWidth: 420 }}>{p.url}</TableCell>
                    <TableCell>{OT.pageState[p.state]}</TableCell>
                    <TableCell align="right">{p.http_status ?? '—'}</TableCell>
                    <TableCell>
                      {p.reason ?? '—'}
                      {p.detail && (
                        <Typography variant="caption" color="text.secondary" component="div">
                          {p.detail}
                        </Typography>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <TablePagination
              component="div"
              count={pages.data?.total ?? 0}
              page={page}
              rowsPerPage={PAGE_SIZE}
              rowsPerPageOptions={[PAGE_SIZE]}
              onPageChange={(_e, p) => setPage(p)}
              labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count}`}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        {done && !!run.pages?.failed && (
          <Button variant="contained" onClick={() => void retry()} disabled={busy}>
            {OT.retryFailed}
          </Button>
        )}
        <Button onClick={onClose}>{OT.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
