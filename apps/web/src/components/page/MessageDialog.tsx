import CheckCircleRoundedIcon from '@mui/icons-material/CheckCircleRounded';
import ErrorRoundedIcon from '@mui/icons-material/ErrorRounded';
import InfoRoundedIcon from '@mui/icons-material/InfoRounded';
import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { T } from '../../lib/texts.js';

export type DialogSeverity = 'success' | 'warning' | 'error' | 'info';

export interface DialogMessage {
  severity: DialogSeverity;
  title: string;
  body?: string;
}

const ICON = {
  success: <CheckCircleRoundedIcon color="success" sx={{ fontSize: 44 }} />,
  warning: <WarningAmberRoundedIcon color="warning" sx={{ fontSize: 44 }} />,
  error: <ErrorRoundedIcon color="error" sx={{ fontSize: 44 }} />,
  info: <InfoRoundedIcon color="primary" sx={{ fontSize: 44 }} />,
};

/** A modal message with one "Aceptar" button (the seed's success / warning / error dialogs). */
export function MessageDialog({ message, onClose }: { message: DialogMessage | null; onClose: () => void }) {
  const id = useId();
  return (
    <Dialog
      open={!!message}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={message?.body ? `${id}-body` : undefined}
      slotProps={{ paper: { sx: { width: 400, textAlign: 'center', pt: 3 } } }}
    >
      {message && (
        <>
          <Box sx={{ display: 'flex', justifyContent: 'center' }}>{ICON[message.severity]}</Box>
          <DialogTitle id={`${id}-title`} sx={{ pb: 1 }}>
            {message.title}
          </DialogTitle>
          {message.body && (
            <DialogContent sx={{ pb: 1 }}>
              <DialogContentText id={`${id}-body`}>{message.body}</DialogContentText>
            </DialogContent>
          )}
          <DialogActions sx={{ justifyContent: 'center', pb: 3 }}>
            <Button variant="contained" onClick={onClose} autoFocus sx={{ minWidth: 120 }}>
              {T.accept}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
