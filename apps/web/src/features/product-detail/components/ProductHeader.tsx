import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { productDisplayName } from '@vigia/domain';
import type { ReactNode } from 'react';
import { ProductThumb, visuallyHidden } from '../../../components/data/DataTable.js';

export interface ProductHeaderData {
  name: string | null;
  image: string | null;
  brand: string | null;
  sku: string | null;
  ean: string | null;
  /** the seller's categories joined with ' > ' */
  breadcrumb: string;
  seller: { name: string; color?: string | null } | null;
  url: string | null;
  /** customer classification, root first */
  classification?: string[];
  /** chips at the end (availability, match) */
  badges?: ReactNode;
}

function Field({ label, value, wide }: { label: string; value: string | null; wide?: boolean }) {
  // a <div> directly in the <dl> wraps each dt/dd pair (nothing else may sit between them)
  return (
    <Box component="div" sx={{ minWidth: 0, ...(wide && { gridColumn: { xs: '1 / -1', md: 'auto' } }) }}>
      <Typography component="dt" variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{ m: 0, fontWeight: 600, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}
      >
        {value || '—'}
      </Typography>
    </Box>
  );
}

/** The product's identity: image, name, brand, SKU/EAN, seller, breadcrumb and a link to the listing. */
export function ProductHeader({
  data,
  loading,
  actions,
}: {
  data: ProductHeaderData | null;
  loading?: boolean;
  /** buttons at the right (e.g. open the product's ranking) */
  actions?: ReactNode;
}) {
  if (loading || !data) {
    return (
      <Paper variant="outlined" sx={{ p: 2.5, display: 'flex', gap: 2.5 }} aria-busy="true">
        <Skeleton variant="rounded" width={112} height={112} />
        <Box sx={{ flex: 1 }}>
          <Skeleton variant="text" width="30%" />
          <Skeleton variant="text" width="70%" sx={{ fontSize: 26 }} />
          <Skeleton variant="text" width="50%" />
          <Skeleton variant="text" width="40%" />
        </Box>
      </Paper>
    );
  }
  const name = productDisplayName(data.name);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label="Producto"
      sx={{
        p: { xs: 2, md: 2.5 },
        display: 'flex',
        gap: { xs: 2, md: 3 },
        alignItems: 'flex-start',
        flexWrap: { xs: 'wrap', sm: 'nowrap' },
      }}
    >
      <Box sx={{ flexShrink: 0, '& .MuiAvatar-root': { bgcolor: '#fff' } }}>
        <ProductThumb src={data.image} alt={name} size={112} />
      </Box>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        {data.breadcrumb && (
          <Typography
            variant="caption"
            component="p"
            sx={{
              color: 'text.secondary',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
            title={data.breadcrumb}
          >
            {data.breadcrumb}
          </Typography>
        )}
        <Typography variant="h5" component="h2" sx={{ mt: 0.25, lineHeight: 1.3, wordBreak: 'break-word' }}>
          {name}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }}>
          {data.brand && <Chip size="small" label={data.brand} color="primary" variant="outlined" />}
          {data.seller && (
            <Chip
              size="small"
              variant="outlined"
              label={data.seller.name}
              icon={
                <Box
                  component="span"
                  sx={{
                    width: 10,
                    height: 10,
                    borderRadius: '50%',
                    bgcolor: data.seller.color ?? 'grey.400',
                    ml: '8px !important',
                  }}
                />
              }
            />
          )}
          {data.badges}
          {data.url && (
            <Link
              href={data.url}
              target="_blank"
              rel="noopener noreferrer"
              underline="hover"
              variant="body2"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}
            >
              Ver publicación
              <OpenInNewIcon sx={{ fontSize: 16 }} aria-hidden />
              <Box component="span" sx={visuallyHidden}>
                (se abre en una pestaña nueva)
              </Box>
            </Link>
          )}
        </Box>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, max-content))' },
            columnGap: 4,
            rowGap: 1,
            m: 0,
            mt: 1.5,
          }}
        >
          <Field label="SKU" value={data.sku} />
          <Field label="EAN" value={data.ean} />
          {data.classification && data.classification.length > 0 && (
            <Field label="Clasificación" value={data.classification.join(' > ')} wide />
          )}
        </Box>
      </Box>
      {actions && <Box sx={{ flexShrink: 0, alignSelf: { xs: 'stretch', sm: 'flex-start' } }}>{actions}</Box>}
    </Paper>
  );
}
