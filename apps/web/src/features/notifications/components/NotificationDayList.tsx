import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import {
  formatDate,
  formatDateTime,
  isoDateInZone,
  NAMESPACE_LABELS,
  type NotificationItem,
} from '@vigia/domain';
import { Link as RouterLink } from 'react-router';
import { UnreadTitle } from '../../../components/data/UnreadTitle.js';

const NAMESPACE_COLORS = {
  prices: 'primary',
  promotions: 'secondary',
  assortment: 'success',
  images: 'info',
  reports: 'default',
} as const;

/** Notifications grouped by day (in the user's timezone): chip, unread marker, the one-line reason, link. */
export function NotificationDayList({
  items,
  timezone,
  onOpen,
}: {
  items: NotificationItem[];
  timezone: string;
  onOpen: (id: number) => void;
}) {
  const days: { day: string; items: NotificationItem[] }[] = [];
  for (const n of items) {
    const day = isoDateInZone(n.occurred_at, timezone);
    const last = days[days.length - 1];
    if (last?.day === day) last.items.push(n);
    else days.push({ day, items: [n] });
  }
  return (
    <Box>
      {days.map((d) => (
        <Box component="section" key={d.day} aria-labelledby={`dia-${d.day}`}>
          <Typography
            id={`dia-${d.day}`}
            component="h2"
            variant="subtitle2"
            sx={{ fontWeight: 600, px: 2, py: 1.25, bgcolor: 'background.default' }}
          >
            {formatDate(d.items[0].occurred_at, timezone)}
          </Typography>
          <List disablePadding aria-labelledby={`dia-${d.day}`}>
            {d.items.map((n) => (
              <ListItem
                key={n.id}
                divider
                data-testid="notification"
                sx={{ alignItems: 'flex-start', gap: 1.5, bgcolor: n.read ? undefined : 'action.hover' }}
              >
                <FiberManualRecordIcon
                  aria-hidden
                  sx={{ fontSize: 12, mt: 0.75, color: n.read ? 'transparent' : 'secondary.main' }}
                />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    <Chip
                      size="small"
                      label={NAMESPACE_LABELS[n.namespace]}
                      color={NAMESPACE_COLORS[n.namespace]}
                    />
                    <UnreadTitle component="h3" variant="subtitle2" title={n.title} read={n.read} />
                  </Box>
                  <Typography variant="body2" sx={{ mt: 0.5 }}>
                    {n.body}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatDateTime(n.occurred_at, timezone)}
                    {n.link && (
                      <>
                        {' · '}
                        <Link component={RouterLink} to={n.link} onClick={() => onOpen(n.id)}>
                          Ver detalle
                        </Link>
                      </>
                    )}
                    {!n.read && (
                      <>
                        {' · '}
                        <Link
                          component="button"
                          variant="caption"
                          onClick={() => onOpen(n.id)}
                          sx={{ verticalAlign: 'baseline' }}
                        >
                          Marcar como leída
                        </Link>
                      </>
                    )}
                  </Typography>
                </Box>
              </ListItem>
            ))}
          </List>
        </Box>
      ))}
    </Box>
  );
}
