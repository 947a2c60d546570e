import CancelOutlinedIcon from '@mui/icons-material/CancelOutlined';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { Box, Typography } from '@mui/material';
import { formatDate, formatNumber, type ImageKpis as Kpis } from '@vigia/domain';
import { KpiCard } from '../../../components/data/index.js';
import { IMAGE_TEXT as T } from '../lib/texts.js';

const CARDS = [
  {
    key: 'correct',
    label: T.kpiCorrect,
    help: T.kpiCorrectHelp,
    tone: 'success',
    icon: <CheckCircleOutlineIcon />,
  },
  {
    key: 'forReview',
    label: T.kpiForReview,
    help: T.kpiForReviewHelp,
    tone: 'warning',
    icon: <HelpOutlineIcon />,
  },
  {
    key: 'incorrect',
    label: T.kpiIncorrect,
    help: T.kpiIncorrectHelp,
    tone: 'error',
    icon: <CancelOutlinedIcon />,
  },
] as const;

/** The three class counts of the comparison date (SCREENS.md "Imágenes"). */
export function ImageKpis({ data, loading }: { data?: Kpis; loading: boolean }) {
  const n = (v?: number) => (v === undefined ? '—' : formatNumber(v));
  return (
    <Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
        {CARDS.map((c) => (
          <KpiCard
            key={c.key}
            label={c.label}
            value={n(data?.[c.key])}
            help={c.help}
            caption={c.help}
            tone={c.tone}
            icon={c.icon}
            loading={loading}
          />
        ))}
      </Box>
      {data && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }} aria-live="polite">
          {T.comparisonDate}: {formatDate(data.comparisonDate)}
          {data.pending > 0 ? ` · ${T.pending(data.pending)}` : ''}
          {data.reviewed > 0 ? ` · ${formatNumber(data.reviewed)} de la banda de revisión ya revisadas` : ''}
        </Typography>
      )}
    </Box>
  );
}
