import {
  Alert,
  Box,
  Button,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Skeleton,
  Snackbar,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { MATCH_SOURCES, type MatchDecision, type MatchItem, type MatchQueueBody } from '@vigia/domain';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type FieldOption, OptionsField } from '../../../components/filters/OptionsField.js';
import { flattenTree } from '../../../components/filters/tree-options.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { licenseQueries, useLicense, useLicenseBrands } from '../../../lib/license.js';
import { useAcceptBrand, useDecide, useMatchQueue } from '../api/queries.js';
import { PairView } from '../components/PairView.js';
import { commandOfKey } from '../lib/keys.js';
import { SOURCE_LABEL, STATUS_LABEL, MATCH_TEXT as T } from '../lib/texts.js';

type View = 'suggested' | 'auto' | 'confirmed' | 'rejected';
type Reason = (typeof MATCH_SOURCES)[number];

interface QueueFilters {
  sellerId: number | null;
  brandIds: number[];
  classificationIds: number[];
  reason: Reason | null;
  minScore: number | null;
  maxScore: number | null;
}

const queryOf = (view: View, f: QueueFilters, page: number): MatchQueueBody => ({
  status: view === 'auto' ? 'confirmed' : view,
  // "Automáticas" are the confirmed pairs of reason auto; a chosen reason narrows any other view
  ...(view === 'auto' ? { reasons: ['auto'] } : f.reason ? { reasons: [f.reason] } : {}),
  ...(f.sellerId ? { sellerIds: [f.sellerId] } : {}),
  ...(f.brandIds.length ? { brandIds: f.brandIds } : {}),
  ...(f.classificationIds.length ? { classificationsIds: f.classificationIds } : {}),
  ...(f.minScore !== null ? { minScore: f.minScore } : {}),
  ...(f.maxScore !== null ? { maxScore: f.maxScore } : {}),
  page,
  pageSize: 25,
});

/** A score typed the Spanish way (0–100, comma or point), as a fraction; null when empty or not a number. */
function scoreOf(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) / 100 : null;
}

/** Coincidencias: review matching's undecided pairs by keyboard or in bulk (issue 29). */
export default function MatchesPage() {
  const license = useLicense();
  const [view, setView] = useState<View>('suggested');
  const [sellerId, setSellerId] = useState<number | null>(null);
  const [minText, setMinText] = useState('');
  const [maxText, setMaxText] = useState('');
  const [brandIds, setBrandIds] = useState<number[]>([]);
  const [classificationIds, setClassificationIds] = useState<number[]>([]);
  const [reason, setReason] = useState<Reason | null>(null);
  const [page, setPage] = useState(1);
  const [index, setIndex] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [last, setLast] = useState<MatchDecision | null>(null);
  const minScore = scoreOf(minText);
  const maxScore = scoreOf(maxText);
  // an impossible range is said on the field and not asked (the API would refuse it)
  const rangeError = minScore !== null && maxScore !== null && minScore > maxScore ? T.rangeError : undefined;
  const q = useMemo(
    () =>
      queryOf(
        view,
        {
          sellerId,
          brandIds,
          classificationIds,
          reason,
          minScore,
          maxScore: rangeError ? null : maxScore,
        },
        page,
      ),
    [view, sellerId, brandIds, classificationIds, reason, minScore, maxScore, rangeError, page],
  );
  const queue = useMatchQueue(q);
  const decide = useDecide();
  const bulk = useAcceptBrand();
  const items = queue.data?.items ?? [];
  const current: MatchItem | undefined = items[Math.min(index, Math.max(0, items.length - 1))];

  // a new filter starts at the first pair
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on filter change only
  useEffect(() => {
    setIndex(0);
    setPage(1);
  }, [view, sellerId, minText, maxText, brandIds, classificationIds, reason]);

  const run = useCallback(
    (action: MatchDecision['action'], target?: MatchDecision) => {
      const d = target ?? (current && { listingId: current.productId, groupId: current.groupId, action });
      if (!d || decide.isPending) return;
      const decision = { ...d, action };
      decide.mutate([decision], {
        onSuccess: () => {
          setNotice(T.decided[action]);
          setLast(action === 'undo' ? null : decision);
        },
        onError: (e) => setNotice(e instanceof Error ? e.message : T.error),
      });
    },
    [current, decide],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const c = commandOfKey(e);
      if (!c) return;
      e.preventDefault();
      if (c === 'accept') run('accept');
      else if (c === 'reject') run('reject');
      else if (c === 'undo') {
        if (last) run('undo', last);
      } else if (c === 'skip' || c === 'next')
        setIndex((i) => Math.min(i + 1, Math.max(0, items.length - 1)));
      else if (c === 'previous') setIndex((i) => Math.max(0, i - 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run, last, items.length]);

  const bulkBrand = view === 'suggested' ? (current?.candidate.brandId ?? null) : null;
  const sellers = license.sellers;
  const sellerIds = useMemo(() => sellers.map((s) => s.id), [sellers]);
  const brands = useLicenseBrands(sellerIds);
  const brandOptions = useMemo<FieldOption[]>(
    () =>
      [...(brands.data ?? [])]
        .sort((a, b) => a.name.localeCompare(b.name, 'es'))
        .map((b) => ({ id: b.id, label: b.name })),
    [brands.data],
  );
  const tree = useQuery(licenseQueries.classificationTree());
  const classificationOptions = useMemo<FieldOption[]>(
    () =>
      flattenTree(tree.data ?? []).map((o) => ({
        id: o.id,
        label: o.name,
        depth: o.depth,
        path: o.path,
        ancestors: o.ancestors,
      })),
    [tree.data],
  );

  return (
    <Box>
      <PageHeader description={T.description} />
      <Stack spacing={2}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            alignItems={{ sm: 'center' }}
            flexWrap="wrap"
            useFlexGap
          >
            <FormControl size="small" sx={{ minWidth: 180 }}>
              <InputLabel id="match-status">{T.status}</InputLabel>
              <Select
                labelId="match-status"
                label={T.status}
                value={view}
                onChange={(e) => setView(e.target.value as View)}
              >
                {(['suggested', 'auto', 'confirmed', 'rejected'] as const).map((v) => (
                  <MenuItem key={v} value={v}>
                    {STATUS_LABEL[v]}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <FormControl size="small" sx={{ minWidth: 200 }}>
              <InputLabel id="match-seller">{T.seller}</InputLabel>
              <Select
                labelId="match-seller"
                label={T.seller}
                value={sellerId === null ? '' : String(sellerId)}
                onChange={(e) => setSellerId(e.target.value === '' ? null : Number(e.target.value))}
              >
                <MenuItem value="">{T.allSellers}</MenuItem>
                {sellers.map((s) => (
                  <MenuItem key={s.id} value={String(s.id)}>
                    {s.name}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <FormControl size="small" sx={{ minWidth: 180 }} disabled={view === 'auto'}>
              <InputLabel id="match-reason">{T.reason}</InputLabel>
              <Select
                labelId="match-reason"
                label={T.reason}
                value={view === 'auto' ? 'auto' : (reason ?? '')}
                onChange={(e) => {
                  const v: string = e.target.value;
                  setReason(v === '' ? null : (v as Reason));
                }}
              >
                <MenuItem value="">{T.allReasons}</MenuItem>
                {MATCH_SOURCES.map((r) => (
                  <MenuItem key={r} value={r}>
                    {SOURCE_LABEL[r]}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <TextField
              size="small"
              label={T.minScore}
              value={minText}
              onChange={(e) => setMinText(e.target.value.replace(/[^0-9,.]/g, '').slice(0, 5))}
              error={rangeError !== undefined}
              helperText={rangeError}
              sx={{ width: 165, flexShrink: 0 }}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': T.minScore } }}
            />
            <TextField
              size="small"
              label={T.maxScore}
              value={maxText}
              onChange={(e) => setMaxText(e.target.value.replace(/[^0-9,.]/g, '').slice(0, 5))}
              sx={{ width: 165, flexShrink: 0 }}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': T.maxScore } }}
            />
            <Box sx={{ flex: 1 }} />
            {bulkBrand !== null && (
              <Button
                variant="outlined"
                disabled={bulk.isPending}
                onClick={() =>
                  bulk.mutate(
                    { brandId: bulkBrand, minScore: minScore ?? current?.score ?? 1 },
                    { onSuccess: (r) => setNotice(T.bulkDone(r.changed)) },
                  )
                }
              >
                {T.bulk} «{current?.candidate.brand}» ≥ {Math.round((minScore ?? current?.score ?? 1) * 100)}
              </Button>
            )}
          </Stack>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 2 }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <OptionsField
                id="match-brands"
                label={T.brands}
                options={brandOptions}
                loading={brands.isFetching}
                value={brandIds}
                onChange={setBrandIds}
                placeholder="Todas"
              />
            </Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <OptionsField
                id="match-classifications"
                label={T.classifications}
                tree
                options={classificationOptions}
                loading={tree.isPending}
                value={classificationIds}
                onChange={setClassificationIds}
                placeholder="Todas"
              />
            </Box>
          </Stack>
          <Typography
            variant="caption"
            color="text.secondary"
            component="p"
            sx={{ mt: 1 }}
            data-testid="match-keys"
          >
            {T.keys}
          </Typography>
        </Paper>

        {queue.isPending ? (
          <Skeleton variant="rounded" height={260} />
        ) : queue.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void queue.refetch()}>
                {T.retry}
              </Button>
            }
          >
            {T.error}
          </Alert>
        ) : !current ? (
          <Alert severity="info" data-testid="match-empty">
            {T.empty} {T.emptyHint}
          </Alert>
        ) : (
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="match-position">
              {T.position(Math.min(index, items.length - 1) + 1, items.length, queue.data?.total ?? 0)}
            </Typography>
            <PairView item={current} />
            <Stack direction="row" spacing={1} sx={{ mt: 2 }} flexWrap="wrap" useFlexGap>
              {current.status !== 'confirmed' && (
                <Button
                  variant="contained"
                  color="success"
                  onClick={() => run('accept')}
                  disabled={decide.isPending}
                >
                  {T.accept}
                </Button>
              )}
              {current.status !== 'rejected' && (
                <Button
                  variant="contained"
                  color="error"
                  onClick={() => run('reject')}
                  disabled={decide.isPending}
                >
                  {T.reject}
                </Button>
              )}
              <Button onClick={() => setIndex((i) => Math.min(i + 1, items.length - 1))}>{T.skip}</Button>
              <Button onClick={() => last && run('undo', last)} disabled={!last || decide.isPending}>
                {T.undo}
              </Button>
              <Box sx={{ flex: 1 }} />
              <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Página anterior
              </Button>
              <Button
                disabled={page * 25 >= (queue.data?.total ?? 0)}
                onClick={() => {
                  setPage((p) => p + 1);
                  setIndex(0);
                }}
              >
                Página siguiente
              </Button>
            </Stack>
          </Paper>
        )}
      </Stack>
      <Snackbar
        open={notice !== null}
        autoHideDuration={3000}
        onClose={() => setNotice(null)}
        message={notice}
      />
    </Box>
  );
}
