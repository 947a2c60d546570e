import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import {
  IMAGE_REVIEW_LABELS,
  IMAGE_VERIFICATION,
  type ImageItem,
  type ImageItemsResponse,
} from '@vigia/domain';
import {
  EmptyState,
  NumberCell,
  ProductThumb,
  TableBodyState,
  visuallyHidden,
} from '../../../components/data/index.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { IMAGE_TEXT as T } from '../lib/texts.js';
import { StatusChip, similarityText } from './StatusChip.js';

const COLUMNS = 8;

/** The checks of the filter, 25 per page: both thumbnails, seller, product, similarity, status, review. */
export function ImageTable({
  data,
  loading,
  error,
  page,
  onPage,
  onOpen,
  onRetry,
  onDownload,
}: {
  data?: ImageItemsResponse;
  loading: boolean;
  error: Error | null;
  page: number;
  onPage: (page: number) => void;
  onOpen: (item: ImageItem) => void;
  onRetry: () => void;
  onDownload: () => void;
}) {
  const rows = data?.items ?? [];
  return (
    <Paper variant="outlined">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.5 }}>
        <Typography variant="h6" component="h2">
          {T.tableTitle}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={onDownload}
          disabled={!data || data.total === 0}
        >
          {T.download}
        </Button>
      </Box>
      <ScrollTable label={T.tableTitle}>
        <Table size="small" aria-label={T.tableTitle}>
          <TableHead>
            <TableRow>
              <TableCell>{T.colReference}</TableCell>
              <TableCell>{T.colImage}</TableCell>
              <TableCell>{T.colSeller}</TableCell>
              <TableCell>{T.colProduct}</TableCell>
              <NumberCell component="th">{T.colSimilarity}</NumberCell>
              <TableCell>{T.colStatus}</TableCell>
              <TableCell>{T.colReview}</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  {T.compare}
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <TableBodyState
              columns={COLUMNS}
              loading={loading && !data}
              skeletonRows={8}
              error={error && { message: T.error, onRetry: onRetry }}
              empty={rows.length === 0 && <EmptyState title={T.empty} hint={T.emptyHint} />}
              rows={() =>
                rows.map((r) => (
                  <TableRow key={r.id} hover sx={{ cursor: 'pointer' }} onClick={() => onOpen(r)}>
                    <TableCell>
                      <ProductThumb src={r.referenceUrl} alt={`${T.reference}: ${r.name ?? ''}`} size={48} />
                    </TableCell>
                    <TableCell>
                      <ProductThumb
                        src={r.imageUrl}
                        alt={`${T.sellerImage(r.sellerName)}: ${r.name ?? ''}`}
                        size={48}
                      />
                    </TableCell>
                    <TableCell>{r.sellerName}</TableCell>
                    <TableCell sx={{ maxWidth: 320 }}>
                      <Typography variant="body2" noWrap title={r.name ?? ''}>
                        {r.name ?? '—'}
                      </Typography>
                      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                        SKU {r.sku ?? '—'}
                        {r.brand ? ` · ${r.brand}` : ''}
                      </Typography>
                    </TableCell>
                    <NumberCell>{similarityText(r.similarity)}</NumberCell>
                    <TableCell>
                      <StatusChip value={r.classification} />
                    </TableCell>
                    <TableCell>{r.review ? IMAGE_REVIEW_LABELS[r.review.decision] : '—'}</TableCell>
                    <TableCell>
                      <Button
                        size="small"
                        onClick={(e) => {
                          e.stopPropagation();
                          onOpen(r);
                        }}
                        aria-label={T.compareLabel(r.name ?? r.sku ?? String(r.id))}
                      >
                        {T.compare}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))
              }
            />
          </TableBody>
        </Table>
      </ScrollTable>
      {data && data.total > 0 && (
        <TablePagination
          component="div"
          count={data.total}
          page={page}
          onPageChange={(_e, p) => onPage(p)}
          rowsPerPage={IMAGE_VERIFICATION.pageSize}
          rowsPerPageOptions={[IMAGE_VERIFICATION.pageSize]}
        />
      )}
    </Paper>
  );
}
