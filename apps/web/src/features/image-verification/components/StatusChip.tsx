import { Chip } from '@mui/material';
import { IMAGE_CLASS_LABELS, type ImageClass } from '@vigia/domain';

const COLOR = { correct: 'success', forReview: 'warning', incorrect: 'error', pending: 'default' } as const;

/** The class of a check as a chip: Correcta / Para revisión / Incorrecta / Sin medir. */
export function StatusChip({ value }: { value: ImageClass }) {
  return (
    <Chip
      size="small"
      color={COLOR[value]}
      variant={value === 'pending' ? 'outlined' : 'filled'}
      label={IMAGE_CLASS_LABELS[value]}
    />
  );
}

/** Similarity as a percentage with two decimals (es-CL), or a dash when not measured. */
export function similarityText(v: number | null): string {
  if (v === null) return '—';
  return `${(v * 100).toLocaleString('es-CL', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;
}
