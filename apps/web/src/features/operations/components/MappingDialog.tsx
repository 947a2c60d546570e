import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { FEED_FIELDS, type FeedSource, type PreviewResponse } from '@vigia/domain';
import { useCallback, useEffect, useState } from 'react';
import { usePhone } from '../../../components/page/use-phone.js';
import { isApiError } from '../../../lib/api-client.js';
import { notify } from '../../../lib/notifier.js';
import { opsKeys, previewSource, updateSource } from '../api/operations.js';
import { FIELD_LABELS, OT } from '../lib/texts.js';

/** Maps the file's columns to Vigía's fields, with a preview of the first rows as Vigía reads them. */
export function MappingDialog({ source, onClose }: { source: FeedSource; onClose: () => void }) {
  // a phone gets the whole screen for the list (issue 31 item 6)
  const phone = usePhone();
  const qc = useQueryClient();
  const [mapping, setMapping] = useState<Record<string, string>>(source.mapping);
  const [preview, setPreview] = useState<PreviewResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (m?: Record<string, string>) => {
      setLoading(true);
      setError(null);
      try {
        const p = await previewSource(source.id, m && Object.keys(m).length ? m : undefined);
        setPreview(p);
        if (!m || !Object.keys(m).length) setMapping(p.mapping);
      } catch (err) {
        setError(isApiError(err) ? err.message : OT.previewError);
      } finally {
        setLoading(false);
      }
    },
    [source.id],
  );
  useEffect(() => {
    void load(source.mapping);
  }, [load, source.mapping]);

  const setField = (field: string, column: string) => {
    const next = { ...mapping };
    if (column) next[field] = column;
    else delete next[field];
    setMapping(next);
    void load(next);
  };
  const save = async () => {
    try {
      await updateSource(source.id, { mapping });
      notify(OT.mappingSaved, 'success');
      await qc.invalidateQueries({ queryKey: opsKeys.sources() });
      onClose();
    } catch {
      // said by the API client
    }
  };
  const columns = preview?.columns ?? [];
  const isCsv = source.format !== 'merchant-xml';
  return (
    <Dialog open onClose={onClose} aria-labelledby="mapping-title" fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle id="mapping-title">
        {OT.mappingTitle} — {source.name}
      </DialogTitle>
      <DialogContent>
        {isCsv && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {OT.mappingHelp}
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
                gap: 2,
                mb: 3,
              }}
            >
              {FEED_FIELDS.map((f) => (
                <TextField
                  key={f}
                  select
                  size="small"
                  id={`map-${f}`}
                  label={FIELD_LABELS[f]}
                  value={mapping[f] ?? ''}
                  required={f === 'id' || f === 'price'}
                  onChange={(e) => setField(f, e.target.value)}
                >
                  <MenuItem value="">{OT.noColumn}</MenuItem>
                  {columns.map((c) => (
                    <MenuItem key={c} value={c}>
                      {c}
                    </MenuItem>
                  ))}
                </TextField>
              ))}
            </Box>
          </>
        )}
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          {OT.previewTitle}
        </Typography>
        {loading && (
          <Box role="status" sx={{ display: 'flex', gap: 2, alignItems: 'center', p: 2 }}>
            <CircularProgress size={20} />
            <Typography>{OT.previewLoading}</Typography>
          </Box>
        )}
        {error && <Alert severity="error">{error}</Alert>}
        {preview && !error && (
          <Table size="small" aria-label={OT.previewTitle} data-testid="mapping-preview">
            <TableHead>
              <TableRow>
                <TableCell>{OT.col.line}</TableCell>
                <TableCell>{OT.col.id}</TableCell>
                <TableCell>{OT.col.title}</TableCell>
                <TableCell align="right">{OT.col.price}</TableCell>
                <TableCell align="right">{OT.col.sale}</TableCell>
                <TableCell>{OT.col.result}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {preview.rows.map((r) => (
                <TableRow key={r.line} data-testid="preview-row">
                  <TableCell>{r.line}</TableCell>
                  <TableCell>{r.product_id ?? '—'}</TableCell>
                  <TableCell>{r.title ?? '—'}</TableCell>
                  <TableCell align="right">{r.price ? `${r.price} ${r.currency ?? ''}` : '—'}</TableCell>
                  <TableCell align="right">{r.sale_price ?? '—'}</TableCell>
                  <TableCell>
                    {r.error ? (
                      <Typography variant="body2" color="error">
                        {r.error}
                      </Typography>
                    ) : (
                      'OK'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{OT.close}</Button>
        {isCsv && (
          <Button variant="contained" onClick={() => void save()} disabled={!mapping.id || !mapping.price}>
            {OT.saveMapping}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
