import Box from '@mui/material/Box';
import Typography, { type TypographyProps } from '@mui/material/Typography';
import { visuallyHidden } from './DataTable.js';

/** A notification's title: bold while unread, with "No leída:" for screen readers. */
export function UnreadTitle({ title, read, ...props }: { title: string; read: boolean } & TypographyProps) {
  return (
    <Typography {...props} sx={{ fontWeight: read ? 500 : 700, ...props.sx }}>
      {!read && (
        <Box component="span" sx={visuallyHidden}>
          No leída:{' '}
        </Box>
      )}
      {title}
    </Typography>
  );
}
