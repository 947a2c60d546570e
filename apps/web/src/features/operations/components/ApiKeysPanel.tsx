import KeyRoundedIcon from '@mui/icons-material/KeyRounded';
import Alert from '@mui/material/Alert';
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
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { formatDateTime } from '@vigia/domain';
import { type FormEvent, useState } from 'react';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { notify } from '../../../lib/notifier.js';
import { createApiKey, opsKeys, revokeApiKey, useApiKeys, useSellers } from '../api/operations.js';
import { OT } from '../lib/texts.js';
import { ListState, Section } from './parts.js';

function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const sellers = useSellers();
  const [name, setName] = useState('');
  const [ids, setIds] = useState<number[]>([]);
  const [key, setKey] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await createApiKey(name, ids);
      setKey(res.key);
      await qc.invalidateQueries({ queryKey: opsKeys.keys() });
    } catch {
      // said by the API client
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="create-key-title" fullWidth maxWidth="sm">
      {key ? (
        <>
          <DialogTitle id="create-key-title">{OT.keyCreatedTitle}</DialogTitle>
          <DialogContent>
            <Alert severity="warning" sx={{ mb: 2 }}>
              {OT.keyCreatedBody}
            </Alert>
            <TextField
              fullWidth
              label={OT.keyCreatedTitle}
              value={key}
              slotProps={{ input: { readOnly: true } }}
              onFocus={(e) => e.target.select()}
              inputProps={{ 'data-testid': 'new-api-key' }}
            />
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              {OT.close}
            </Button>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <DialogTitle id="create-key-title">{OT.addKey}</DialogTitle>
          <DialogContent>
            <Stack gap={2} sx={{ pt: 1 }}>
              <TextField
                id="key-name"
                label={OT.keyName}
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                autoFocus
              />
              <TextField
                select
                id="key-sellers"
                label={OT.keySellers}
                value={ids}
                slotProps={{ select: { multiple: true } }}
                onChange={(e) => setIds((e.target.value as unknown as number[]).map(Number))}
              >
                {(sellers.data?.items ?? []).map((s) => (
                  <MenuItem key={s.id} value={s.id}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{OT.cancel}</Button>
            <Button type="submit" variant="contained" disabled={!name.trim() || !ids.length}>
              {OT.addKey}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}

/** API keys: created (shown once), revoked, last use. */
export function ApiKeysPanel() {
  const qc = useQueryClient();
  const keys = useApiKeys();
  const sellers = useSellers();
  const [open, setOpen] = useState(false);
  const items = keys.data?.items ?? [];
  const names = (ids: number[]) =>
    ids.map((id) => sellers.data?.items.find((s) => s.id === id)?.name ?? String(id)).join(', ');
  const revoke = async (id: number) => {
    try {
      await revokeApiKey(id);
      notify(OT.keyRevoked, 'success');
      await qc.invalidateQueries({ queryKey: opsKeys.keys() });
    } catch {
      // said by the API client
    }
  };
  const state = ListState({
    query: keys,
    empty: !items.length,
    loading: OT.keysLoading,
    error: OT.keysError,
    emptyTitle: OT.keysEmpty,
    emptyBody: OT.keysEmptyBody,
    emptyIcon: <KeyRoundedIcon />,
  });
  return (
    <Section
      id="ops-keys"
      title={OT.keysTitle}
      actions={
        <Button variant="outlined" onClick={() => setOpen(true)}>
          {OT.addKey}
        </Button>
      }
    >
      {state ?? (
        <ScrollTable label={OT.keysTitle} outlined>
          <Table size="small" aria-label={OT.keysTitle}>
            <TableHead>
              <TableRow>
                <TableCell>{OT.col.name}</TableCell>
                <TableCell>{OT.col.prefix}</TableCell>
                <TableCell>{OT.col.sellers}</TableCell>
                <TableCell>{OT.col.created}</TableCell>
                <TableCell>{OT.lastUse}</TableCell>
                <TableCell align="right">{OT.col.actions}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((k) => (
                <TableRow key={k.id} data-testid="ops-key">
                  <TableCell>{k.name}</TableCell>
                  <TableCell>
                    <code>{k.prefix}…</code>
                  </TableCell>
                  <TableCell>{names(k.seller_ids)}</TableCell>
                  <TableCell>{formatDateTime(k.created_at)}</TableCell>
                  <TableCell>{k.last_used_at ? formatDateTime(k.last_used_at) : OT.neverUsed}</TableCell>
                  <TableCell align="right">
                    {k.revoked_at ? (
                      OT.revoked
                    ) : (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => void revoke(k.id)}
                        aria-label={`${OT.revoke}: ${k.name}`}
                      >
                        {OT.revoke}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
      {open && <CreateKeyDialog onClose={() => setOpen(false)} />}
    </Section>
  );
}
