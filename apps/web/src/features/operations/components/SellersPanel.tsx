import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { notify } from '../../../lib/notifier.js';
import { createSeller, opsKeys, useSellers } from '../api/operations.js';
import { OT, timeAgo } from '../lib/texts.js';
import { ListState, Section } from './parts.js';

function RegisterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [country, setCountry] = useState('CL');
  const [currency, setCurrency] = useState('CLP');
  const [url, setUrl] = useState('');
  const [own, setOwn] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await createSeller({
        name,
        country: country.toUpperCase(),
        currency: currency.toUpperCase(),
        url: url || null,
        own,
      });
      notify(OT.sellerSaved, 'success');
      await qc.invalidateQueries({ queryKey: opsKeys.all });
      onClose();
    } catch {
      // the API client already said why
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="register-seller-title" fullWidth maxWidth="sm">
      <form onSubmit={(e) => void submit(e)}>
        <DialogTitle id="register-seller-title">{OT.addSeller}</DialogTitle>
        <DialogContent>
          <Stack gap={2} sx={{ pt: 1 }}>
            <TextField
              label={OT.sellerName}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              autoFocus
            />
            <Stack direction="row" gap={2}>
              <TextField
                label={OT.country}
                value={country}
                onChange={(e) => setCountry(e.target.value)}
                required
              />
              <TextField
                label={OT.currency}
                value={currency}
                onChange={(e) => setCurrency(e.target.value)}
                required
              />
            </Stack>
            <TextField label={OT.website} value={url} onChange={(e) => setUrl(e.target.value)} type="url" />
            <FormControlLabel
              control={<Checkbox checked={own} onChange={(e) => setOwn(e.target.checked)} />}
              label={OT.own}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{OT.cancel}</Button>
          <Button type="submit" variant="contained" disabled={busy || !name.trim()}>
            {OT.save}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The organisation's sellers with the freshness of their data. */
export function SellersPanel() {
  const sellers = useSellers();
  const [open, setOpen] = useState(false);
  const items = sellers.data?.items ?? [];
  const state = ListState({
    query: sellers,
    empty: !items.length,
    loading: OT.sellersLoading,
    error: OT.sellersError,
    emptyTitle: OT.sellersEmpty,
    emptyIcon: <StorefrontOutlinedIcon />,
  });
  return (
    <Section
      id="ops-sellers"
      title={OT.sellersTitle}
      actions={
        <Button variant="outlined" onClick={() => setOpen(true)}>
          {OT.addSeller}
        </Button>
      }
    >
      {state ?? (
        <ScrollTable label={OT.sellersTitle} outlined>
          <Table size="small" aria-label={OT.sellersTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{OT.col.name}</TableCell>
                <TableCell>{OT.col.country}</TableCell>
                <TableCell>{OT.col.currency}</TableCell>
                <TableCell>{OT.col.site}</TableCell>
                <TableCell>{OT.col.freshness}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((s) => (
                <TableRow key={s.id} data-testid="ops-seller" data-stale={s.stale}>
                  <TableCell>
                    {s.name} {s.own && <Chip size="small" label={OT.ownChip} sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>{s.country}</TableCell>
                  <TableCell>{s.currency}</TableCell>
                  <TableCell>{s.url ?? '—'}</TableCell>
                  <TableCell>
                    {timeAgo(s.last_import_at)}
                    {s.stale && (
                      <Chip size="small" color="warning" variant="outlined" label={OT.stale} sx={{ ml: 1 }} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
      {open && <RegisterDialog open onClose={() => setOpen(false)} />}
    </Section>
  );
}
