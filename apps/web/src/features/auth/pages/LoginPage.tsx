import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { MESSAGES } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { type DialogMessage, MessageDialog } from '../../../components/page/MessageDialog.js';
import { PasswordField } from '../../../components/page/PasswordField.js';
import { isApiError } from '../../../lib/api-client.js';
import { startLicenseLoad } from '../../../lib/license-load.js';
import { PATHS, RETURN_PARAM, withReturnPath } from '../../../lib/paths.js';
import { queryClient } from '../../../lib/query-client.js';
import { completeLogin, setLoginStatus } from '../../../lib/session.js';
import { T } from '../../../lib/texts.js';
import { requestLogin } from '../api.js';
import { AuthLayout } from '../components/AuthLayout.js';
import { isLoginValid, validateEmail, validateLoginPassword } from '../validation.js';

export default function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<DialogMessage | null>(null);

  // The route's loader has logged out; the previous user's cached data goes too.
  useEffect(() => {
    queryClient.clear();
  }, []);

  const emailError = touched.email ? validateEmail(email) : null;
  const passwordError = touched.password ? validateLoginPassword(password) : null;
  const valid = isLoginValid(email, password);

  const submit = async () => {
    if (!valid || loading) return;
    setLoading(true);
    setLoginStatus('pending');
    try {
      const response = await requestLogin(email, password);
      if (completeLogin(response)) {
        // the license lists are asked now, not once the loader's page has loaded (issue 31 item 11)
        startLicenseLoad(queryClient);
        navigate(withReturnPath(PATHS.dependenciesLoader, searchParams.get(RETURN_PARAM)), { replace: true });
        return;
      }
      setDialog({ severity: 'warning', title: MESSAGES.wrongCredentials });
    } catch (error) {
      setLoginStatus('error');
      // The server answered without a session for these credentials: same as "no token or user".
      const rejected = isApiError(error) && (error.status === 400 || error.status === 401);
      setDialog({ severity: 'warning', title: rejected ? MESSAGES.wrongCredentials : MESSAGES.tryAgain });
    }
    setLoading(false);
  };

  return (
    <AuthLayout title={T.loginTitle} subtitle={T.loginSubtitle} loading={loading}>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched({ email: true, password: true });
          void submit();
        }}
        sx={{ display: 'grid', gap: 2.5 }}
      >
        <TextField
          label={T.email}
          type="email"
          autoComplete="username"
          autoFocus
          size="medium"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, email: true }))}
          error={!!emailError}
          helperText={emailError ?? ' '}
          disabled={loading}
          slotProps={{ htmlInput: { 'aria-invalid': !!emailError } }}
        />
        <PasswordField
          label={T.password}
          autoComplete="current-password"
          size="medium"
          fullWidth
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, password: true }))}
          error={!!passwordError}
          helperText={passwordError ?? ' '}
          disabled={loading}
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: -1.5 }}>
          <Link
            component={RouterLink}
            to={PATHS.resetPassword}
            variant="body2"
            underline="hover"
            fontWeight={600}
          >
            {T.forgotPassword}
          </Link>
        </Box>
        <Button type="submit" variant="contained" size="large" disabled={!valid || loading} sx={{ py: 1.25 }}>
          {T.signIn}
        </Button>
      </Box>
      <MessageDialog message={dialog} onClose={() => setDialog(null)} />
    </AuthLayout>
  );
}
