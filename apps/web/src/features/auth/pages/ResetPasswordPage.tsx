import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { MESSAGES } from '@vigia/domain';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { type DialogMessage, MessageDialog } from '../../../components/page/MessageDialog.js';
import { PATHS } from '../../../lib/paths.js';
import { T } from '../../../lib/texts.js';
import { requestPasswordReset } from '../api.js';
import { AuthLayout } from '../components/AuthLayout.js';
import { validateEmail } from '../validation.js';

/** /reset-password: asks for the e-mail and sends the recovery message. */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<(DialogMessage & { next?: string }) | null>(null);
  const error = validateEmail(email);

  const submit = async () => {
    if (error || loading) return;
    setLoading(true);
    try {
      await requestPasswordReset(email);
      setDialog({
        severity: 'success',
        title: MESSAGES.recoverySentTitle,
        body: MESSAGES.recoverySentBody,
        next: PATHS.login,
      });
    } catch {
      setDialog({ severity: 'error', title: T.error, body: MESSAGES.resetFailed });
    }
    setLoading(false);
  };

  return (
    <AuthLayout title={T.recoverTitle} subtitle={T.recoverSubtitle} loading={loading}>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          void submit();
        }}
        sx={{ display: 'grid', gap: 2.5 }}
      >
        <TextField
          label={T.email}
          type="email"
          autoComplete="email"
          autoFocus
          size="medium"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && !!error}
          helperText={(touched && error) || ' '}
          disabled={loading}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!!error || loading}
          sx={{ py: 1.25 }}
        >
          {T.recover}
        </Button>
        <Button component={RouterLink} to={PATHS.login} startIcon={<ArrowBackRoundedIcon />} color="inherit">
          {T.backToLogin}
        </Button>
      </Box>
      <MessageDialog
        message={dialog}
        onClose={() => {
          const next = dialog?.next;
          setDialog(null);
          if (next) navigate(next, { replace: true });
        }}
      />
    </AuthLayout>
  );
}
