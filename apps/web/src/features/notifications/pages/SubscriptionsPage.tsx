import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import type { ClassificationNode } from '@vigia/domain';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { ErrorState } from '../../../components/data/DataTable.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { licenseQueries, useLicense, useLicenseBrands } from '../../../lib/license.js';
import { appPath } from '../../../lib/paths.js';
import { notificationQueries } from '../api/queries.js';
import { type Option, SubscriptionCard } from '../components/SubscriptionCard.js';

function flatten(nodes: ClassificationNode[], prefix = '', depth = 0, out: Option[] = []): Option[] {
  for (const n of nodes) {
    const name = prefix ? `${prefix} › ${n.name}` : n.name;
    out.push({ id: n.id, name });
    if (depth < 1) flatten(n.children, name, depth + 1, out);
  }
  return out;
}

/** notifications-subscriptions — per namespace: on/off, channel, digest hour, minimum size, conditions. */
export default function SubscriptionsPage() {
  const subs = useQuery(notificationQueries.subscriptions());
  const license = useLicense();
  const sellerIds = useMemo(() => license.sellers.map((s) => s.id), [license.sellers]);
  const brands = useLicenseBrands(sellerIds);
  const tree = useQuery(licenseQueries.classificationTree());
  const options = useMemo(
    () => ({
      sellers: license.sellers.map((s) => ({ id: s.id, name: s.name })),
      brands: (brands.data ?? []).map((b) => ({ id: b.id, name: b.name })),
      classifications: flatten(tree.data ?? []),
    }),
    [license.sellers, brands.data, tree.data],
  );

  return (
    <Box>
      <PageHeader
        description="Elige de qué te avisamos, sobre qué eCommerce, marcas y clasificaciones, desde qué tamaño de cambio y cómo: en la aplicación, por correo al instante o en un resumen diario a tu hora."
        actions={
          <Button component={RouterLink} to={appPath('notifications')} startIcon={<ArrowBackRoundedIcon />}>
            Notificaciones
          </Button>
        }
      />
      {subs.isPending ? (
        <Stack spacing={2} role="status" aria-label="Cargando suscripciones">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={120} />
          ))}
        </Stack>
      ) : subs.isError ? (
        <ErrorState message="No se pudieron cargar tus suscripciones." onRetry={() => void subs.refetch()} />
      ) : (
        <Stack spacing={2}>
          {subs.data.subscriptions.map((s) => (
            <SubscriptionCard
              key={s.namespace}
              subscription={s}
              timezone={subs.data.timezone}
              options={options}
            />
          ))}
        </Stack>
      )}
    </Box>
  );
}
