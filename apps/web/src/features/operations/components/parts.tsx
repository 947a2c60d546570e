import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { StateMessage } from '../../../components/page/StateMessage.js';
import { OT } from '../lib/texts.js';

/** A section of the screen: a title, its action buttons and its body. */
export function Section(props: { id: string; title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={`${props.id}-title`} sx={{ mb: 4 }}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1.5 }} gap={1}>
        <Typography id={`${props.id}-title`} variant="h6" component="h2">
          {props.title}
        </Typography>
        <Stack direction="row" gap={1}>
          {props.actions}
        </Stack>
      </Stack>
      {props.children}
    </Box>
  );
}

/** Loading, error or empty state of a list (null when it has rows). */
export function ListState(props: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  empty: boolean;
  loading: string;
  error: string;
  emptyTitle: string;
  emptyBody?: string;
  emptyIcon: ReactNode;
}): ReactNode {
  if (props.query.isPending)
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 3 }}>
        <CircularProgress size={24} />
        <Typography>{props.loading}</Typography>
      </Box>
    );
  if (props.query.isError)
    return (
      <StateMessage
        icon={<ErrorOutlineRoundedIcon />}
        title={props.error}
        action={OT.retry}
        onAction={() => void props.query.refetch()}
      />
    );
  if (props.empty)
    return <StateMessage icon={props.emptyIcon} title={props.emptyTitle} body={props.emptyBody} />;
  return null;
}
