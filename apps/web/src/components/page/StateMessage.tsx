import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A centred message with an icon and an optional action: empty results, errors, placeholders. */
export function StateMessage({
  icon,
  title,
  body,
  action,
  onAction,
  children,
}: {
  icon?: ReactNode;
  title: ReactNode;
  body?: ReactNode;
  action?: string;
  onAction?: () => void;
  children?: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{
        py: { xs: 5, md: 8 },
        px: 3,
        textAlign: 'center',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
      }}
    >
      {icon && (
        <Box
          sx={{
            width: 64,
            height: 64,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            mb: 2,
            color: 'primary.main',
            bgcolor: 'rgba(106, 27, 154, 0.08)',
            '& svg': { fontSize: 32 },
          }}
        >
          {icon}
        </Box>
      )}
      <Typography variant="h6" component="p" sx={{ maxWidth: 560 }}>
        {title}
      </Typography>
      {body && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, maxWidth: 520 }}>
          {body}
        </Typography>
      )}
      {action && onAction && (
        <Button variant="contained" onClick={onAction} sx={{ mt: 3 }}>
          {action}
        </Button>
      )}
      {children}
    </Paper>
  );
}
