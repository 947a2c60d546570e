import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import ImageNotSupportedOutlinedIcon from '@mui/icons-material/ImageNotSupportedOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  Link,
  Skeleton,
  TableCell,
  type TableCellProps,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { formatNumber, NO_NAME_PRODUCT, type SortDirection } from '@vigia/domain';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { appPath } from '../../lib/paths.js';

// Small building blocks every analysis table uses, so that tables across features look and behave alike:
// sortable headers, numeric cells, skeleton rows, empty and error states, "Cargar más".

export interface SortState<K extends string = string> {
  by: K;
  dir: SortDirection;
}

/** A header cell that sorts; first click on a new column sorts descending (DPM default). */
export function SortableHeadCell<K extends string>({
  column,
  label,
  sort,
  onSort,
  align,
  width,
  firstDir = 'desc',
}: {
  column: K;
  label: ReactNode;
  sort: SortState<K>;
  onSort: (next: SortState<K>) => void;
  align?: TableCellProps['align'];
  width?: number | string;
  /** Direction of the first click on this column: 'asc' for text (A→Z), 'desc' for figures. */
  firstDir?: 'asc' | 'desc';
}) {
  const active = sort.by === column;
  const flip = (d: 'asc' | 'desc') => (d === 'asc' ? 'desc' : 'asc');
  return (
    <TableCell align={align} sortDirection={active ? sort.dir : false} sx={{ width, whiteSpace: 'nowrap' }}>
      <TableSortLabel
        active={active}
        direction={active ? sort.dir : firstDir}
        onClick={() => onSort({ by: column, dir: active ? flip(sort.dir) : firstDir })}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

/** sx of text only screen readers get (a header cell's name over a column of buttons). */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/**
 * Table sx: the first column (the product) stays in view while wide tables scroll sideways — its header
 * cell too, so the header stays over its column (above the sticky header row's other cells).
 */
export const stickyFirstColumn = {
  '& tbody td:first-of-type': {
    position: 'sticky',
    left: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    boxShadow: 'inset -1px 0 0 rgba(74, 20, 140, 0.12)',
  },
  '& thead th:first-of-type': {
    position: 'sticky',
    left: 0,
    zIndex: 3,
    boxShadow: 'inset -1px 0 0 rgba(74, 20, 140, 0.12)',
  },
} as const;

/** A right-aligned number cell with tabular figures. */
export function NumberCell({ children, sx, ...rest }: TableCellProps) {
  return (
    <TableCell
      align="right"
      sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ...sx }}
      {...rest}
    >
      {children}
    </TableCell>
  );
}

/** Placeholder rows while a table loads. */
export function SkeletonRows({ rows = 5, columns }: { rows?: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <TableRow key={r} aria-hidden>
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <TableCell key={c}>
              <Skeleton variant="text" width={c === 0 ? '80%' : '60%'} />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}

/** A full-width row holding a message (empty or error state). */
export function MessageRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ borderBottom: 0 }}>
        {children}
      </TableCell>
    </TableRow>
  );
}

/** "Nothing found": what happened and what to change. */
export function EmptyState({ title, hint }: { title: string; hint?: ReactNode }) {
  return (
    <Box role="status" sx={{ py: 5, px: 2, textAlign: 'center', color: 'text.secondary' }}>
      <SearchOffIcon sx={{ fontSize: 40, color: 'text.disabled' }} aria-hidden />
      <Typography variant="subtitle1" sx={{ color: 'text.primary', fontWeight: 600, mt: 1 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" sx={{ mt: 0.5, maxWidth: 560, mx: 'auto' }}>
          {hint}
        </Typography>
      )}
    </Box>
  );
}

/** A failed request: the message (also shown in the snackbar by the API client) and a retry button. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Box role="alert" sx={{ py: 4, px: 2, textAlign: 'center' }}>
      <ErrorOutlineIcon color="error" sx={{ fontSize: 36 }} aria-hidden />
      <Typography variant="body1" sx={{ mt: 1 }}>
        {message}
      </Typography>
      {onRetry && (
        <Button variant="outlined" startIcon={<ReplayIcon />} onClick={onRetry} sx={{ mt: 1.5 }}>
          Reintentar
        </Button>
      )}
    </Box>
  );
}

/**
 * A table body in one of its four states: loading (skeleton rows), failed (the message and a retry),
 * empty (what to change) or its rows — so every table shows them alike. `rows` is called only in the
 * last state (its data may be missing before).
 */
export function TableBodyState({
  columns,
  loading,
  error,
  empty,
  skeletonRows,
  rows,
}: {
  columns: number;
  loading: boolean;
  /** The failure to show, or a falsy value. */
  error?: { message: string; onRetry?: () => void } | null | false;
  /** What to say when there is nothing to list (an EmptyState), or false when there is. */
  empty: ReactNode;
  skeletonRows?: number;
  rows: () => ReactNode;
}) {
  if (loading) return <SkeletonRows rows={skeletonRows} columns={columns} />;
  if (error)
    return (
      <MessageRow colSpan={columns}>
        <ErrorState message={error.message} onRetry={error.onRetry} />
      </MessageRow>
    );
  if (empty) return <MessageRow colSpan={columns}>{empty}</MessageRow>;
  return <>{rows()}</>;
}

/** "Cargar más" under a cursor-paged list, with how many are shown. */
export function LoadMoreFooter({
  shown,
  total,
  hasMore,
  loading,
  onLoadMore,
  noun = 'productos',
}: {
  shown: number;
  total?: number | null;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  noun?: string;
}) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        px: 2,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="body2" sx={{ color: 'text.secondary' }} aria-live="polite">
        {total !== undefined && total !== null
          ? `Mostrando ${formatNumber(shown)} de ${formatNumber(total)} ${noun}`
          : `Mostrando ${formatNumber(shown)} ${noun}`}
      </Typography>
      {hasMore && (
        <Button
          variant="outlined"
          onClick={onLoadMore}
          disabled={loading}
          startIcon={loading ? <CircularProgress size={16} /> : undefined}
        >
          Cargar más
        </Button>
      )}
    </Box>
  );
}

/** Product thumbnail with a neutral placeholder when there is no image or it fails to load. */
export function ProductThumb({ src, alt, size = 40 }: { src?: string | null; alt: string; size?: number }) {
  return (
    <Avatar
      variant="rounded"
      src={src ?? undefined}
      alt={alt}
      imgProps={{ loading: 'lazy' }}
      sx={{
        width: size,
        height: size,
        bgcolor: 'grey.100',
        color: 'grey.400',
        border: 1,
        borderColor: 'divider',
      }}
    >
      <ImageNotSupportedOutlinedIcon fontSize="small" />
    </Avatar>
  );
}

/** A product's name linking to its detail page (/app/product/<id>); nameless products get the seed's text. */
export function ProductLink({
  id,
  name,
  maxWidth = 360,
  wrap = false,
}: {
  id: number | string;
  name?: string | null;
  /** A width or one per breakpoint ({ xs: 120, sm: 320 }). */
  maxWidth?: number | Partial<Record<'xs' | 'sm' | 'md' | 'lg', number>>;
  /** The whole name on as many lines as it needs (a card), instead of two lines at most. */
  wrap?: boolean;
}) {
  const text = name?.trim() ? name : NO_NAME_PRODUCT;
  if (wrap)
    return (
      <Link component={RouterLink} to={appPath(`product/${id}`)} underline="hover" sx={{ fontWeight: 600 }}>
        {text}
      </Link>
    );
  return (
    <Link
      component={RouterLink}
      to={appPath(`product/${id}`)}
      underline="hover"
      title={text}
      sx={{
        fontWeight: 600,
        display: '-webkit-box',
        WebkitLineClamp: 2,
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
        maxWidth,
        lineHeight: 1.35,
      }}
    >
      {text}
    </Link>
  );
}
