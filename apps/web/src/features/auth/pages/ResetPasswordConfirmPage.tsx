import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import { MESSAGES } from '@vigia/domain';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { type DialogMessage, MessageDialog } from '../../../components/page/MessageDialog.js';
import { PasswordField } from '../../../components/page/PasswordField.js';
import { PATHS } from '../../../lib/paths.js';
import { T } from '../../../lib/texts.js';
import { confirmPasswordReset } from '../api.js';
import { AuthLayout } from '../components/AuthLayout.js';
import { validateResetConfirm } from '../validation.js';

/** /password/reset/confirm/?uid=…&token=…: sets a new password from the recovery e-mail's link. */
export default function ResetPasswordConfirmPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uid = params.get('uid') ?? '';
  const token = params.get('token') ?? '';
  const missing = uid === '' || token === '';

  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState(false);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<(DialogMessage & { next?: string }) | null>(
    missing
      ? {
          severity: 'warning',
          title: MESSAGES.missingInformation,
          body: MESSAGES.resetNotPossibleRetry,
          next: PATHS.login,
        }
      : null,
  );
  const error = validateResetConfirm(password, confirmation);

  const submit = async () => {
    setTouched(true);
    if (error || loading || missing) return;
    setLoading(true);
    try {
      await confirmPasswordReset({ password, uid, token });
      setDialog({
        severity: 'success',
        title: MESSAGES.resetDoneTitle,
        body: MESSAGES.resetDoneBody,
        next: PATHS.login,
      });
    } catch {
      setDialog({ severity: 'error', title: T.error, body: MESSAGES.resetFailed });
    }
    setLoading(false);
  };

  return (
    <AuthLayout title={T.resetTitle} subtitle={T.resetSubtitle} loading={loading}>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        sx={{ display: 'grid', gap: 2.5 }}
      >
        <PasswordField
          label={T.newPassword}
          autoComplete="new-password"
          autoFocus={!missing}
          size="medium"
          fullWidth
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onBlur={() => password !== '' && setTouched(true)}
          disabled={loading || missing}
          error={touched && !!error}
        />
        <PasswordField
          label={T.confirmation}
          autoComplete="new-password"
          size="medium"
          fullWidth
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          onBlur={() => setTouched(true)}
          disabled={loading || missing}
          error={touched && !!error}
        />
        <FormHelperText
          error={touched && !!error}
          sx={{ mt: -1.5, minHeight: 20 }}
          role={touched && error ? 'alert' : undefined}
        >
          {touched && error ? error : ' '}
        </FormHelperText>
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!!error || loading || missing}
          sx={{ py: 1.25 }}
        >
          {T.save}
        </Button>
        <Button component={RouterLink} to={PATHS.login} color="inherit">
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
