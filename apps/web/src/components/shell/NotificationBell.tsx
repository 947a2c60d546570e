import NotificationsNoneRoundedIcon from '@mui/icons-material/NotificationsNoneRounded';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDateTime, NAMESPACE_LABELS, notificationsRoutes } from '@vigia/domain';
import { useEffect, useId, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { callRoute } from '../../lib/api-client.js';
import {
  onNotificationPushed,
  setNotificationCount,
  syncNotificationCount,
  useNotificationCount,
} from '../../lib/notification-count.js';
import { appPath } from '../../lib/paths.js';
import { T } from '../../lib/texts.js';
import { UnreadTitle } from '../data/UnreadTitle.js';

// The bell of the top bar: the unread count (browser storage, synced from the server on mount and on
// window focus, +1 live per pushed notification) and a short drop-down of the latest notifications.

const LATEST = 5;
export const bellKeys = { latest: ['notifications', 'bell-latest'] as const };

export function NotificationBell() {
  const count = useNotificationCount();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const popId = useId();
  const latest = useQuery({
    queryKey: bellKeys.latest,
    queryFn: ({ signal }) =>
      callRoute(notificationsRoutes.list, { query: { page_size: LATEST } }, { notify: false, signal }),
    enabled: !!anchor,
    staleTime: 30_000,
  });

  useEffect(() => {
    const ctrl = new AbortController();
    void syncNotificationCount(ctrl.signal);
    const onFocus = () => void syncNotificationCount();
    window.addEventListener('focus', onFocus);
    const off = onNotificationPushed(() => void queryClient.invalidateQueries({ queryKey: bellKeys.latest }));
    return () => {
      ctrl.abort();
      window.removeEventListener('focus', onFocus);
      off();
    };
  }, [queryClient]);

  const open = (id: number, link: string | null) => {
    setAnchor(null);
    void callRoute(notificationsRoutes.markRead, { body: { id } }, { notify: false })
      .then((r) => setNotificationCount(r.unread))
      .catch(() => {});
    if (link) navigate(link);
  };

  const items = latest.data?.results ?? [];
  return (
    <>
      <Tooltip title={T.notifications}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-haspopup="dialog"
          aria-expanded={anchor ? true : undefined}
          aria-controls={anchor ? popId : undefined}
          // the name holds the badge's visible text ("99+" above 99); no count, no badge text at all
          aria-label={
            count > 0
              ? `${T.notifications}: ${count > 99 ? '99+ notificaciones nuevas' : T.notificationsCount(count)}`
              : T.notifications
          }
        >
          <Badge badgeContent={count > 0 ? count : undefined} color="secondary" max={99}>
            <NotificationsNoneRoundedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={popId}
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            sx: { mt: 1, width: 380, maxWidth: '92vw' },
            role: 'dialog',
            'aria-label': 'Últimas notificaciones',
          },
        }}
      >
        <Box sx={{ px: 2, py: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {T.notifications}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {count > 0 ? T.notificationsCount(count) : 'Sin notificaciones nuevas'}
          </Typography>
        </Box>
        <Divider />
        {latest.isPending ? (
          <Box role="status" sx={{ p: 3, textAlign: 'center' }}>
            <CircularProgress size={24} aria-label="Cargando notificaciones" />
          </Box>
        ) : latest.isError ? (
          <Typography role="alert" sx={{ p: 2 }} color="error">
            No se pudieron cargar las notificaciones.
          </Typography>
        ) : items.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            Aún no tienes notificaciones.
          </Typography>
        ) : (
          <List dense disablePadding aria-label="Últimas notificaciones">
            {items.map((n) => (
              <ListItem key={n.id} disablePadding>
                <ListItemButton
                  onClick={() => open(n.id, n.link)}
                  sx={{ alignItems: 'flex-start', flexDirection: 'column', gap: 0.25, py: 1 }}
                >
                  <UnreadTitle variant="body2" title={n.title} read={n.read} />
                  <Typography variant="caption" color="text.secondary">
                    {NAMESPACE_LABELS[n.namespace]} · {formatDateTime(n.occurred_at, latest.data?.timezone)}
                  </Typography>
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        <Divider />
        <Box sx={{ px: 2, py: 1, display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Link component={RouterLink} to={appPath('notifications')} onClick={() => setAnchor(null)}>
            Ver todas
          </Link>
          <Button
            size="small"
            component={RouterLink}
            to={appPath('notifications-subscriptions')}
            onClick={() => setAnchor(null)}
          >
            Suscripciones
          </Button>
        </Box>
      </Popover>
    </>
  );
}
