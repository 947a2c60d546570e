import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import {
  formatDateTime,
  IMAGE_REVIEW_LABELS,
  type ImageCheckDetail,
  type ImageReviewDecision,
} from '@vigia/domain';
import { useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/notifier.js';
import { useImageCheck, useImageReview } from '../api/queries.js';
import { IMAGE_TEXT as T } from '../lib/texts.js';
import { StatusChip, similarityText } from './StatusChip.js';

type Overlay = 'heat' | 'outline' | 'none';
const SIDE = 400;

/** The seller's picture with the difference map (heat map or outline of the region that differs). */
function SellerPicture({ detail, overlay }: { detail: ImageCheckDetail; overlay: Overlay }) {
  const s = detail.score;
  // the strongest difference at 60 % opacity, the rest in proportion (faint differences still show)
  const max = Math.max(0.05, ...(s?.diffMap ?? []));
  return (
    <Box sx={{ position: 'relative', width: '100%', maxWidth: SIDE, aspectRatio: '1 / 1' }}>
      <Box
        component="img"
        src={detail.imageUrl}
        alt={`${T.sellerImage(detail.sellerName)}: ${detail.name ?? ''}`}
        sx={{
          width: '100%',
          height: '100%',
          objectFit: 'fill',
          display: 'block',
          border: 1,
          borderColor: 'divider',
        }}
      />
      {s && overlay === 'heat' && (
        <Box
          aria-hidden
          data-testid="heat-map"
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'grid',
            gridTemplateColumns: `repeat(${s.gridSide}, 1fr)`,
            pointerEvents: 'none',
          }}
        >
          {s.diffMap.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed grid of windows
            <Box key={i} sx={{ bgcolor: `rgba(216, 27, 96, ${((0.6 * v) / max).toFixed(2)})` }} />
          ))}
        </Box>
      )}
      {s?.outline && overlay === 'outline' && (
        <Box
          aria-hidden
          data-testid="diff-outline"
          sx={{
            position: 'absolute',
            left: `${s.outline.x * 100}%`,
            top: `${s.outline.y * 100}%`,
            width: `${s.outline.width * 100}%`,
            height: `${s.outline.height * 100}%`,
            border: '3px solid #d81b60',
            borderRadius: 1,
            pointerEvents: 'none',
          }}
        />
      )}
    </Box>
  );
}

/** The reference, with the part the seller's picture shows outlined when it is a crop. */
function ReferencePicture({ detail }: { detail: ImageCheckDetail }) {
  const r = detail.score?.region;
  return (
    <Box sx={{ position: 'relative', width: '100%', maxWidth: SIDE, aspectRatio: '1 / 1' }}>
      <Box
        component="img"
        src={detail.referenceUrl}
        alt={`${T.reference}: ${detail.name ?? ''}`}
        sx={{ width: '100%', height: '100%', display: 'block', border: 1, borderColor: 'divider' }}
      />
      {r && r.side < 1 && (
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            left: `${r.x * 100}%`,
            top: `${r.y * 100}%`,
            width: `${r.side * 100}%`,
            height: `${r.side * 100}%`,
            border: '2px dashed #6a1b9a',
            pointerEvents: 'none',
          }}
        />
      )}
    </Box>
  );
}

const pct = (v: number) => `${(v * 100).toLocaleString('es-CL', { maximumFractionDigits: 1 })} %`;

function Figures({ detail }: { detail: ImageCheckDetail }) {
  const s = detail.score;
  if (!s) return <Alert severity="info">{detail.error ? T.measureError(detail.error) : T.notMeasured}</Alert>;
  const rows: [string, string][] = [
    [T.ssim, pct(s.ssim)],
    [T.coverage, pct(s.coverage)],
    [T.colour, pct(s.colour)],
    [T.hash, `${s.hashDistance} / 64`],
  ];
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {rows.map(([k, v]) => (
        <Box key={k} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
            {k}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {v}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Both pictures side by side at full size, the measure, what differs, and the review decision. */
export function CompareDialog({
  id,
  pivotId,
  onClose,
}: {
  id: number | null;
  pivotId: number | null;
  onClose: () => void;
}) {
  const { data, isPending, error, refetch } = useImageCheck(id, pivotId);
  const review = useImageReview(pivotId);
  const [overlay, setOverlay] = useState<Overlay>('heat');
  // While a decision is saved its buttons are disabled, and "Quitar decisión" disappears with the
  // decision: the focus would fall to the page and Escape would no longer reach the dialog. Once saved,
  // the focus goes to the button of the decision now shown (Aceptar imagen when none).
  const acceptRef = useRef<HTMLButtonElement>(null);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!refocus || review.isPending) return;
    setRefocus(false);
    (data?.review?.decision === 'wrong' ? rejectRef : acceptRef).current?.focus();
  }, [refocus, review.isPending, data]);
  const decide = (decision: ImageReviewDecision | null) => {
    if (!data) return;
    setRefocus(true);
    review.mutate({ id: data.id, decision }, { onSuccess: () => notify(T.saved, 'success') });
  };
  return (
    <Dialog open={id !== null} onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="iv-dialog-title">
      <DialogTitle id="iv-dialog-title">
        {T.dialogTitle}
        {data ? ` · ${data.name ?? data.sku ?? ''}` : ''}
      </DialogTitle>
      <DialogContent dividers>
        {isPending && id !== null ? (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 4 }}>
            <CircularProgress size={20} /> {T.loadingDialog}
          </Box>
        ) : error || !data ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" onClick={() => void refetch()}>
                Reintentar
              </Button>
            }
          >
            {T.error}
          </Alert>
        ) : (
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            <Box component="figure" sx={{ m: 0 }}>
              <Typography component="figcaption" variant="subtitle2" sx={{ mb: 1 }}>
                {T.reference}
              </Typography>
              <ReferencePicture detail={data} />
            </Box>
            <Box component="figure" sx={{ m: 0 }}>
              <Typography component="figcaption" variant="subtitle2" sx={{ mb: 1 }}>
                {T.sellerImage(data.sellerName)}
              </Typography>
              <SellerPicture detail={data} overlay={overlay} />
            </Box>
            <Box>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5 }}>
                <Typography variant="h5" component="p" data-testid="iv-similarity">
                  {T.score}: {similarityText(data.similarity)}
                </Typography>
                <StatusChip value={data.classification} />
              </Box>
              <Figures detail={data} />
            </Box>
            <Box>
              {data.score && (
                <ToggleButtonGroup
                  size="small"
                  exclusive
                  value={overlay}
                  onChange={(_e, v: Overlay | null) => v && setOverlay(v)}
                  aria-label={T.overlay}
                  sx={{ mb: 2 }}
                >
                  <ToggleButton value="heat">{T.heatMap}</ToggleButton>
                  <ToggleButton value="outline">{T.outline}</ToggleButton>
                  <ToggleButton value="none">{T.none}</ToggleButton>
                </ToggleButtonGroup>
              )}
              {data.review && (
                <Typography variant="body2" sx={{ mb: 1 }} data-testid="iv-review">
                  {T.decided(
                    IMAGE_REVIEW_LABELS[data.review.decision],
                    data.review.decidedBy,
                    formatDateTime(data.review.decidedAt),
                  )}
                </Typography>
              )}
              {data.classification === 'forReview' ? (
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                  <Button
                    ref={acceptRef}
                    variant={data.review?.decision === 'accepted' ? 'contained' : 'outlined'}
                    color="success"
                    disabled={review.isPending}
                    onClick={() => decide('accepted')}
                  >
                    {T.accept}
                  </Button>
                  <Button
                    ref={rejectRef}
                    variant={data.review?.decision === 'wrong' ? 'contained' : 'outlined'}
                    color="error"
                    disabled={review.isPending}
                    onClick={() => decide('wrong')}
                  >
                    {T.reject}
                  </Button>
                  {data.review && (
                    <Button disabled={review.isPending} onClick={() => decide(null)}>
                      {T.undo}
                    </Button>
                  )}
                </Box>
              ) : (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {T.reviewOnly}
                </Typography>
              )}
            </Box>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
