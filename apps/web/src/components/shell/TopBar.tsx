import LogoutRoundedIcon from '@mui/icons-material/LogoutRounded';
import MenuRoundedIcon from '@mui/icons-material/MenuRounded';
import PersonOutlineRoundedIcon from '@mui/icons-material/PersonOutlineRounded';
import TuneRoundedIcon from '@mui/icons-material/TuneRounded';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import Select from '@mui/material/Select';
import { alpha } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useLicense } from '../../lib/license.js';
import { appPath, PATHS } from '../../lib/paths.js';
import { logout, useSession } from '../../lib/session.js';
import { useUserSettings } from '../../lib/settings.js';
import { T } from '../../lib/texts.js';
import { CompetitorsPicker } from './CompetitorsPicker.js';
import { NotificationBell } from './NotificationBell.js';
import { ProductLogo } from './ProductMark.js';
import { UserAvatar, userInitials } from './UserAvatar.js';

export const TOP_BAR_HEIGHT = 64;

/** Outlined select styled for the purple bar (white text, translucent fill). */
const onBarSx = {
  color: '#fff',
  bgcolor: alpha('#fff', 0.08),
  borderRadius: 2,
  '& .MuiOutlinedInput-notchedOutline': { borderColor: alpha('#fff', 0.28) },
  '&:hover .MuiOutlinedInput-notchedOutline': { borderColor: alpha('#fff', 0.6) },
  '&.Mui-focused .MuiOutlinedInput-notchedOutline': { borderColor: '#fff' },
  '& .MuiSelect-icon': { color: alpha('#fff', 0.85) },
} as const;
const onBarLabelSx = { color: alpha('#fff', 0.8), '&.Mui-focused': { color: '#fff' } } as const;

function SettingSelect({
  label,
  value,
  onChange,
  options,
  minWidth,
  onBar,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: ReactNode }[];
  minWidth: number;
  onBar: boolean;
}) {
  const id = useId();
  return (
    <FormControl size="small" sx={{ minWidth }}>
      <InputLabel id={`${id}-label`} shrink sx={onBar ? onBarLabelSx : undefined}>
        {label}
      </InputLabel>
      <Select
        labelId={`${id}-label`}
        label={label}
        notched
        value={options.some((o) => o.value === value) ? value : ''}
        onChange={(e) => onChange(String(e.target.value))}
        sx={onBar ? onBarSx : undefined}
        MenuProps={{ slotProps: { paper: { sx: { mt: 0.5, maxHeight: 400 } } } }}
      >
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** Pivot, currency and competitors: the user settings kept per e-mail. */
function SettingsControls({ onBar }: { onBar: boolean }) {
  const license = useLicense();
  const settings = useUserSettings();
  return (
    <>
      <SettingSelect
        label={T.pivot}
        value={settings.pivotId === null ? '' : String(settings.pivotId)}
        onChange={(v) => settings.setPivotId(Number(v))}
        minWidth={180}
        onBar={onBar}
        options={license.pivots.map((p) => ({
          value: String(p.id),
          label: (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Box
                sx={{
                  width: 10,
                  height: 10,
                  borderRadius: '50%',
                  bgcolor: p.color,
                  flexShrink: 0,
                  boxShadow: '0 0 0 2px rgba(255,255,255,.85)',
                }}
              />
              {p.name}
            </Box>
          ),
        }))}
      />
      <SettingSelect
        label={T.currency}
        value={settings.currency}
        onChange={settings.setCurrency}
        minWidth={104}
        onBar={onBar}
        options={license.currencies.map((c) => ({ value: c.acronym, label: c.acronym }))}
      />
      <CompetitorsPicker
        groups={license.sellersByCountries}
        selected={settings.selectedSellers}
        excludeId={settings.pivotId}
        onApply={settings.setSelectedSellers}
        buttonSx={
          onBar
            ? {
                color: '#fff',
                border: `1px solid ${alpha('#fff', 0.28)}`,
                bgcolor: alpha('#fff', 0.08),
                borderRadius: 2,
                py: 0.25,
                '&:hover': { bgcolor: alpha('#fff', 0.16), borderColor: alpha('#fff', 0.6) },
              }
            : { border: 1, borderColor: 'divider', borderRadius: 2, justifyContent: 'flex-start' }
        }
      />
    </>
  );
}

export function TopBar({ onToggleNav }: { onToggleNav: () => void }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const [userAnchor, setUserAnchor] = useState<HTMLElement | null>(null);
  const [settingsAnchor, setSettingsAnchor] = useState<HTMLElement | null>(null);

  return (
    <AppBar
      position="fixed"
      color="primary"
      sx={{
        zIndex: (t) => t.zIndex.drawer + 1,
        background: 'linear-gradient(90deg, #4a148c 0%, #6a1b9a 55%, #8e24aa 100%)',
        borderBottom: `1px solid ${alpha('#fff', 0.08)}`,
      }}
    >
      <Toolbar sx={{ minHeight: TOP_BAR_HEIGHT, gap: 1.5, px: { xs: 1.5, sm: 2 } }}>
        <Tooltip title={T.menu}>
          <IconButton color="inherit" edge="start" onClick={onToggleNav} aria-label={T.menu}>
            <MenuRoundedIcon />
          </IconButton>
        </Tooltip>
        <Box
          component={RouterLink}
          to={PATHS.home}
          sx={{ color: 'inherit', textDecoration: 'none', display: 'flex' }}
        >
          <ProductLogo size={30} inverted />
        </Box>

        <Box sx={{ flex: 1 }} />

        <Box sx={{ display: { xs: 'none', lg: 'flex' }, alignItems: 'center', gap: 1.5 }}>
          <SettingsControls onBar />
        </Box>
        <Tooltip title={T.analysisSettings}>
          <IconButton
            color="inherit"
            sx={{ display: { xs: 'inline-flex', lg: 'none' } }}
            onClick={(e) => setSettingsAnchor(e.currentTarget)}
            aria-label={T.analysisSettings}
          >
            <TuneRoundedIcon />
          </IconButton>
        </Tooltip>
        <Popover
          open={!!settingsAnchor}
          anchorEl={settingsAnchor}
          onClose={() => setSettingsAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <Box sx={{ p: 2, pt: 2.5, display: 'flex', flexDirection: 'column', gap: 2, width: 280 }}>
            <SettingsControls onBar={false} />
          </Box>
        </Popover>

        <Divider
          orientation="vertical"
          flexItem
          sx={{ borderColor: alpha('#fff', 0.18), my: 1.5, mx: 0.5 }}
        />

        <NotificationBell />
        <Tooltip title={T.userMenu}>
          <IconButton
            onClick={(e) => setUserAnchor(e.currentTarget)}
            // the name holds the initials shown (label-content-name-mismatch)
            aria-label={`${userInitials(user?.name, user?.email)}, ${T.userMenu.toLowerCase()}`}
            sx={{ p: 0.5 }}
          >
            <UserAvatar name={user?.name} email={user?.email} />
          </IconButton>
        </Tooltip>
        <Menu
          anchorEl={userAnchor}
          open={!!userAnchor}
          onClose={() => setUserAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          slotProps={{ paper: { sx: { mt: 1, minWidth: 240 } } }}
        >
          <Box sx={{ px: 2, py: 1.25 }}>
            <Typography variant="subtitle2">{user?.name}</Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {user?.email}
            </Typography>
          </Box>
          <Divider />
          <MenuItem
            onClick={() => {
              setUserAnchor(null);
              navigate(appPath('user-profile'));
            }}
          >
            <ListItemIcon>
              <PersonOutlineRoundedIcon fontSize="small" />
            </ListItemIcon>
            {T.profile}
          </MenuItem>
          <MenuItem
            onClick={() => {
              setUserAnchor(null);
              logout();
              navigate(PATHS.login, { replace: true });
            }}
          >
            <ListItemIcon>
              <LogoutRoundedIcon fontSize="small" />
            </ListItemIcon>
            {T.logout}
          </MenuItem>
        </Menu>
      </Toolbar>
    </AppBar>
  );
}
