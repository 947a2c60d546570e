import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { SNACKBAR_TIMEOUT_MS } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { deliverFlash, type Notice, onNotice } from '../../lib/notifier.js';

/**
 * The app's snackbar: bottom right, 5 s (seed 000 §2). The latest message takes the place of the one
 * on screen (each message remounts the snackbar, so its 5 s start again).
 */
export function SnackbarHost() {
  const [current, setCurrent] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const off = onNotice((n) => {
      setCurrent(n);
      setOpen(true);
    });
    deliverFlash();
    return off;
  }, []);

  return (
    <Snackbar
      key={current?.id}
      open={open && !!current}
      autoHideDuration={SNACKBAR_TIMEOUT_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      onClose={(_e, reason) => {
        if (reason !== 'clickaway') setOpen(false);
      }}
    >
      <Alert
        variant="filled"
        severity={current?.severity ?? 'info'}
        onClose={() => setOpen(false)}
        sx={{ minWidth: 300, maxWidth: 480, boxShadow: 6 }}
      >
        {current?.message}
      </Alert>
    </Snackbar>
  );
}
