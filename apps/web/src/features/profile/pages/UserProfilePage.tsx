import LockResetRoundedIcon from '@mui/icons-material/LockResetRounded';
import TuneRoundedIcon from '@mui/icons-material/TuneRounded';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_TIMEZONE, MESSAGES } from '@vigia/domain';
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from 'react';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { PasswordField } from '../../../components/page/PasswordField.js';
import { UserAvatar } from '../../../components/shell/UserAvatar.js';
import { isSessionExpired } from '../../../lib/api-client.js';
import { useLicense } from '../../../lib/license.js';
import { notify } from '../../../lib/notifier.js';
import { getUser, setToken, setUser } from '../../../lib/session.js';
import { useUserSettings } from '../../../lib/settings.js';
import { T } from '../../../lib/texts.js';
import { timezones } from '../../../lib/timezones.js';
import { validatePasswordChange } from '../../auth/index.js';
import { changePassword, profileQuery, saveProfile } from '../api.js';

function Section({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', mb: 3 }}>
          <Avatar sx={{ bgcolor: 'rgba(106, 27, 154, 0.1)', color: 'primary.main', width: 40, height: 40 }}>
            {icon}
          </Avatar>
          <Box>
            <Typography variant="h6" component="h2">
              {title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {description}
            </Typography>
          </Box>
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

const NAME_REQUIRED = 'Ingresa tu nombre.';

/** 'Perfil de usuario': name, default pivot, currency and timezone; password change. */
export default function UserProfilePage() {
  const profile = useQuery(profileQuery());
  const license = useLicense();
  const settings = useUserSettings();
  const zones = useMemo(timezones, []);

  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [pivotPk, setPivotPk] = useState<number | ''>('');
  const [currency, setCurrency] = useState('');
  const [timezone, setTimezone] = useState(DEFAULT_TIMEZONE);
  const [saving, setSaving] = useState(false);

  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);

  useEffect(() => {
    if (!profile.data) return;
    setName(profile.data.name);
    setPivotPk(profile.data.pivot?.pk ?? profile.data.pivot_pk ?? '');
    setCurrency(profile.data.currency ?? '');
    setTimezone(profile.data.timezone || DEFAULT_TIMEZONE);
  }, [profile.data]);

  useEffect(() => {
    if (profile.isError && !isSessionExpired(profile.error)) notify(MESSAGES.profileLoadFailed, 'error');
  }, [profile.isError, profile.error]);

  const nameError = nameTouched && !name.trim() ? NAME_REQUIRED : null;
  const submitProfile = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    // The profile always has a name (the server refuses an empty one too): say so in place.
    if (!name.trim()) {
      setNameTouched(true);
      return;
    }
    setSaving(true);
    try {
      const pivot_pk = pivotPk === '' ? null : pivotPk;
      const saved = await saveProfile({
        pivot_pk,
        name: name.trim(),
        currency: currency || undefined,
        timezone,
      });
      const pivot = license.pivots.find((p) => p.id === pivot_pk);
      const user = getUser();
      if (user) {
        setUser({
          ...user,
          name: saved?.name ?? name.trim(),
          timezone: saved?.timezone ?? timezone,
          currency: saved?.currency ?? (currency || null),
          pivot: pivot ? { id: pivot.id, name: pivot.name } : null,
        });
      }
      // The new defaults take effect now.
      if (pivot_pk !== null && pivot_pk !== settings.pivotId) settings.setPivotId(pivot_pk);
      if (currency && currency !== settings.currency) settings.setCurrency(currency);
      await profile.refetch();
      notify(MESSAGES.profileSaved, 'success');
    } catch (error) {
      console.error(error);
      if (!isSessionExpired(error)) notify(MESSAGES.profileSaveFailed, 'error');
    }
    setSaving(false);
  };

  const submitPassword = async (e: FormEvent) => {
    e.preventDefault();
    if (changing) return;
    const problem = validatePasswordChange(password, confirmation);
    setPasswordError(problem);
    if (problem) {
      notify(problem, 'warning');
      return;
    }
    setChanging(true);
    try {
      const token = await changePassword(password);
      if (token) setToken(token);
      setPassword('');
      setConfirmation('');
      notify(MESSAGES.passwordChanged, 'success');
    } catch (error) {
      console.error(error);
      if (!isSessionExpired(error)) notify(MESSAGES.passwordChangeFailed, 'error');
    }
    setChanging(false);
  };

  const loading = profile.isPending || saving || changing;
  const email = profile.data?.email ?? getUser()?.email ?? '';

  return (
    <>
      <Box sx={{ height: 4, mb: 1 }}>{loading && <LinearProgress aria-label={T.loading} />}</Box>
      <PageHeader description="Tus datos, tus valores por defecto y tu contraseña." />

      <Card sx={{ mb: 3 }}>
        <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2, p: { xs: 2.5, sm: 3 } }}>
          <UserAvatar name={profile.data?.name ?? getUser()?.name} email={email} size={56} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="h6" component="p" noWrap>
              {profile.data ? profile.data.name || email : <Skeleton width={200} />}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {email}
            </Typography>
          </Box>
          {profile.data?.pivot && (
            <Chip color="primary" variant="outlined" label={`${T.pivot}: ${profile.data.pivot.name}`} />
          )}
        </CardContent>
      </Card>

      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', lg: '7fr 5fr' },
          alignItems: 'start',
        }}
      >
        <Section
          icon={<TuneRoundedIcon />}
          title={T.settingsSection}
          description="Cómo te ve el equipo y con qué valores parte tu análisis."
        >
          <Box component="form" noValidate onSubmit={submitProfile} sx={{ display: 'grid', gap: 2.5 }}>
            <TextField
              label={T.name}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onBlur={() => setNameTouched(true)}
              disabled={profile.isPending}
              required
              error={!!nameError}
              helperText={nameError ?? undefined}
              slotProps={{ htmlInput: { maxLength: 150 } }}
            />
            <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              <TextField
                select
                label={T.defaultPivot}
                value={pivotPk}
                onChange={(e) => setPivotPk(e.target.value === '' ? '' : Number(e.target.value))}
                disabled={profile.isPending}
              >
                <MenuItem value="">{T.none}</MenuItem>
                {license.pivots.map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label={T.defaultCurrency}
                value={license.currencies.some((c) => c.acronym === currency) ? currency : ''}
                onChange={(e) => setCurrency(e.target.value)}
                disabled={profile.isPending}
              >
                {license.currencies.map((c) => (
                  <MenuItem key={c.acronym} value={c.acronym}>
                    {c.acronym} — {c.name}
                  </MenuItem>
                ))}
              </TextField>
            </Box>
            <Autocomplete
              options={zones}
              value={timezone}
              onChange={(_e, v) => setTimezone(v ?? DEFAULT_TIMEZONE)}
              disableClearable
              disabled={profile.isPending}
              renderInput={(params) => <TextField {...params} label={T.timezone} />}
            />
            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Button type="submit" variant="contained" disabled={profile.isPending || saving}>
                {T.save}
              </Button>
            </Box>
          </Box>
        </Section>

        <Section
          icon={<LockResetRoundedIcon />}
          title={T.passwordSection}
          description="Al cambiarla se cierran tus otras sesiones."
        >
          <Box component="form" noValidate onSubmit={submitPassword} sx={{ display: 'grid', gap: 2.5 }}>
            <PasswordField
              label={T.newPassword}
              autoComplete="new-password"
              fullWidth
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                setPasswordError(null);
              }}
              error={!!passwordError}
            />
            <PasswordField
              label={T.confirmation}
              autoComplete="new-password"
              fullWidth
              value={confirmation}
              onChange={(e) => {
                setConfirmation(e.target.value);
                setPasswordError(null);
              }}
              error={!!passwordError}
              helperText={passwordError ?? ' '}
            />
            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Button type="submit" variant="contained" disabled={changing}>
                {T.save}
              </Button>
            </Box>
          </Box>
        </Section>
      </Box>
    </>
  );
}
