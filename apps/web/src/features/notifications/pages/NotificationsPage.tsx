import DoneAllRoundedIcon from '@mui/icons-material/DoneAllRounded';
import NotificationsOffOutlinedIcon from '@mui/icons-material/NotificationsOffOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NAMESPACE_LABELS,
  NOTIFICATION_NAMESPACES,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_READ_STATES,
  type NotificationNamespace,
} from '@vigia/domain';
import { useEffect } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { EmptyState, ErrorState } from '../../../components/data/DataTable.js';
import { oneOf, useDropUnknownParams } from '../../../components/data/url-state.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { onNotificationPushed } from '../../../lib/notification-count.js';
import { appPath } from '../../../lib/paths.js';
import {
  markAllNotificationsRead,
  markNotificationRead,
  notificationKeys,
  notificationQueries,
} from '../api/queries.js';
import { NotificationDayList } from '../components/NotificationDayList.js';

const ALL = 'all';
const NAMESPACE_CHOICES = [ALL, ...NOTIFICATION_NAMESPACES] as const;
const STATE_LABELS: Record<(typeof NOTIFICATION_READ_STATES)[number], string> = {
  all: 'Todas',
  unread: 'No leídas',
  read: 'Leídas',
};

/** notifications — what changed that matters to the user, grouped by day, filtered by namespace and read state. */
export default function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const namespace = NAMESPACE_CHOICES.find((n) => n === params.get('ns')) ?? ALL;
  const state = NOTIFICATION_READ_STATES.find((s) => s === params.get('estado')) ?? 'all';
  const page = Math.max(1, Math.min(100_000, Number.parseInt(params.get('pagina') ?? '1', 10) || 1));
  useDropUnknownParams([
    oneOf('ns', NAMESPACE_CHOICES),
    oneOf('estado', NOTIFICATION_READ_STATES),
    { key: 'pagina', ok: (raw) => /^[1-9]\d{0,4}$/.test(raw) || raw === '100000' },
  ]);
  // One URL update per action (a filter change also goes back to page 1); defaults leave their key out.
  const update = (patch: { ns?: string; estado?: string; pagina?: number }) =>
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === undefined || v === ALL || v === 1) out.delete(k);
          else out.set(k, String(v));
        }
        return out;
      },
      { replace: true },
    );
  const queryClient = useQueryClient();
  const query = {
    page,
    page_size: NOTIFICATION_PAGE_SIZE,
    namespace: namespace === ALL ? undefined : (namespace as NotificationNamespace),
    state,
  };
  const list = useQuery(notificationQueries.list(query));
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });

  // A pushed notification appears at once.
  useEffect(
    () => onNotificationPushed(() => void queryClient.invalidateQueries({ queryKey: notificationKeys.all })),
    [queryClient],
  );

  const data = list.data;
  return (
    <Box>
      <PageHeader
        description="Lo que cambió en tu mercado y te importa: cada aviso dice qué pasó, cuánto y por qué importa."
        actions={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<DoneAllRoundedIcon />}
              disabled={!data?.unread}
              onClick={() => void markAllNotificationsRead(query.namespace).then(refresh)}
            >
              Marcar todas como leídas
            </Button>
            <Button
              component={RouterLink}
              to={appPath('notifications-subscriptions')}
              startIcon={<SettingsOutlinedIcon />}
            >
              Suscripciones
            </Button>
          </Stack>
        }
      />
      <Paper
        variant="outlined"
        sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
      >
        <Box role="group" aria-label="Espacio" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {NAMESPACE_CHOICES.map((ns) => (
            <Chip
              key={ns}
              label={ns === ALL ? 'Todos los espacios' : NAMESPACE_LABELS[ns]}
              color={namespace === ns ? 'primary' : 'default'}
              variant={namespace === ns ? 'filled' : 'outlined'}
              aria-pressed={namespace === ns}
              onClick={() => update({ ns, pagina: 1 })}
            />
          ))}
        </Box>
        <FormControl size="small" sx={{ minWidth: 160, ml: { md: 'auto' } }}>
          <InputLabel id="notif-state">Estado</InputLabel>
          <Select
            labelId="notif-state"
            label="Estado"
            value={state}
            onChange={(e) => update({ estado: e.target.value, pagina: 1 })}
          >
            {NOTIFICATION_READ_STATES.map((s) => (
              <MenuItem key={s} value={s}>
                {STATE_LABELS[s]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Paper>
      <Paper variant="outlined">
        {list.isPending ? (
          <Box role="status" aria-label="Cargando notificaciones" sx={{ p: 2 }}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} variant="rounded" height={56} sx={{ mb: 1 }} />
            ))}
          </Box>
        ) : list.isError ? (
          <ErrorState
            message="No se pudieron cargar las notificaciones."
            onRetry={() => void list.refetch()}
          />
        ) : !data || data.results.length === 0 ? (
          <EmptyState
            title={state === 'unread' ? 'No tienes notificaciones sin leer' : 'No hay notificaciones'}
            hint={
              <>
                <NotificationsOffOutlinedIcon
                  sx={{ verticalAlign: 'middle', mr: 0.5 }}
                  fontSize="small"
                  aria-hidden
                />
                Cambia el espacio o el estado, o revisa tus suscripciones: solo te avisamos de cambios sobre
                el tamaño mínimo que elegiste.
              </>
            }
          />
        ) : (
          <>
            <NotificationDayList
              items={data.results}
              timezone={data.timezone}
              onOpen={(id) => void markNotificationRead(id).then(refresh)}
            />
            <TablePagination
              component="div"
              count={data.count}
              page={page - 1}
              rowsPerPage={NOTIFICATION_PAGE_SIZE}
              rowsPerPageOptions={[NOTIFICATION_PAGE_SIZE]}
              onPageChange={(_, p) => update({ pagina: p + 1 })}
              getItemAriaLabel={(type) =>
                type === 'next' ? 'Página siguiente' : type === 'previous' ? 'Página anterior' : type
              }
            />
          </>
        )}
      </Paper>
    </Box>
  );
}
