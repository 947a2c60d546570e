import { Box, Stack } from '@mui/material';
import { type FilterField, FilterPanel } from '../../../components/filters/index.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useImageItems, useImageKpis } from '../api/queries.js';
import { downloadImageItems } from '../api/requests.js';
import { CompareDialog } from '../components/CompareDialog.js';
import { ImageControls } from '../components/ImageControls.js';
import { ImageKpis } from '../components/ImageKpis.js';
import { ImageTable } from '../components/ImageTable.js';
import { IMAGE_TEXT as T } from '../lib/texts.js';
import { IMAGE_URL, useImageSearch } from '../lib/use-image-search.js';

// Filters of the shared panel image verification applies (seed 001 §7: brands, classificationsIds,
// sellersIds, skus); the comparison date, class and similarity band are this screen's own controls.
const FIELDS: readonly FilterField[] = ['classificationsIds', 'brands', 'sellersIds', 'SKUs'];

/** Imágenes (SCREENS.md): KPIs, filters, the checks with thumbnails, the side-by-side dialog, XLSX. */
export default function ImageVerificationPage() {
  const s = useImageSearch();
  const kpis = useImageKpis(s.kpis, s.pivotId);
  const items = useImageItems(s.items, s.pivotId);
  const blocked = !s.preparing && !s.items;
  return (
    <Box>
      <PageHeader description={T.description} />
      <Stack spacing={2}>
        <FilterPanel search={s.search} fields={FIELDS} busy={items.isFetching} />
        <ImageControls s={s} />
        {!blocked && (
          <>
            <ImageKpis data={kpis.data} loading={s.preparing || kpis.isPending} />
            <ImageTable
              data={items.data}
              loading={s.preparing || items.isPending}
              error={items.error}
              page={s.page}
              onPage={(p) => s.setParams({ [IMAGE_URL.page]: p ? String(p) : '' })}
              onOpen={(item) => s.setParams({ [IMAGE_URL.check]: String(item.id) })}
              onRetry={() => void items.refetch()}
              onDownload={() =>
                s.items &&
                void downloadImageItems({ ...s.items, limit: undefined, skip: undefined }, s.pivotId)
              }
            />
          </>
        )}
      </Stack>
      <CompareDialog
        id={s.openCheck}
        pivotId={s.pivotId}
        onClose={() => s.setParams({ [IMAGE_URL.check]: '' })}
      />
    </Box>
  );
}
