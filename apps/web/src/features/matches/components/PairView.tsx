import OpenInNewRoundedIcon from '@mui/icons-material/OpenInNewRounded';
import { Box, Chip, Link, Paper, Stack, Typography } from '@mui/material';
import { formatNumber, formatPrice, type MatchItem, type MatchSide } from '@vigia/domain';
import { PART_LABEL, SOURCE_LABEL, MATCH_TEXT as T, VERDICT_LABEL } from '../lib/texts.js';

const VERDICT_COLOR = { agree: 'success', disagree: 'error', missing: 'warning' } as const;

/** One listing of the pair: picture, name, brand, both prices, pack size, store link. */
function Side({ side, title }: { side: MatchSide; title: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0 }} data-testid={`match-side-${title}`}>
      <Typography variant="overline" color="text.secondary">
        {title} · {side.sellerName}
      </Typography>
      <Stack direction="row" spacing={2} alignItems="flex-start">
        <Box
          component="img"
          src={side.imageUrl ?? undefined}
          alt={side.imageUrl ? side.name : ''}
          sx={{
            width: 96,
            height: 96,
            objectFit: 'contain',
            bgcolor: 'grey.100',
            borderRadius: 1,
            flexShrink: 0,
          }}
        />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
            {side.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Marca: {side.brand ?? '—'} · Contenido: {side.pack ?? '—'}
          </Typography>
          <Typography variant="body2">
            {formatPrice(side.price, side.currency)}
            {side.currency !== side.convertedCurrency && (
              <> · {formatPrice(side.convertedPrice, side.convertedCurrency)}</>
            )}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div">
            {side.classification ?? 'Sin clasificación'} · SKU {side.ref}
          </Typography>
          {side.url && (
            <Link href={side.url} target="_blank" rel="noopener noreferrer" variant="body2">
              {T.openStore} <OpenInNewRoundedIcon sx={{ fontSize: 14, verticalAlign: 'middle' }} />
            </Link>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}

/** The pair side by side, with the reason, the score and which parts agreed. */
export function PairView({ item }: { item: MatchItem }) {
  return (
    <Stack spacing={2} data-testid="match-pair" data-product-id={item.productId} data-group-id={item.groupId}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Side side={item.pivot} title={T.pivot} />
        <Side side={item.candidate} title={T.candidate} />
      </Stack>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center">
        <Typography variant="body2">
          {T.reason}: <b>{SOURCE_LABEL[item.source]}</b> · {T.score}:{' '}
          <b data-testid="match-score">{formatNumber(item.score * 100, 0)}</b>/100
        </Typography>
        {item.parts.map((p) => (
          <Chip
            key={`${p.part}-${p.a}-${p.b}`}
            size="small"
            variant="outlined"
            color={VERDICT_COLOR[p.verdict]}
            label={`${PART_LABEL[p.part]} ${VERDICT_LABEL[p.verdict]}: ${p.b} / ${p.a}`}
          />
        ))}
      </Stack>
      {item.decidedBy && item.decidedAt && (
        <Typography variant="caption" color="text.secondary">
          Decidido por {item.decidedBy} el {new Date(item.decidedAt).toLocaleDateString('es-CL')}
        </Typography>
      )}
    </Stack>
  );
}
