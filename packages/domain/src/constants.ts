// Business constants from the seeds (000 §9, 001 §9). One place; server and web import them.

export const APP_VERSION = '1.7.21';
export const DEFAULT_TIMEZONE = 'America/Santiago';
export const MIN_PASSWORD_LENGTH = 8;
export const SNACKBAR_TIMEOUT_MS = 5000;
export const LAZY_SCREEN_TIMEOUT_MS = 30_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const TAGLINE = 'Más información, mejores decisiones';

export const MODULE_CODES = [
  'dpm',
  'ecommerce_navigation',
  'promotions',
  'assortment',
  'reports',
  'image_verification',
] as const;
export type ModuleCode = (typeof MODULE_CODES)[number];

export const PRICE_TYPES = ['NORMAL', 'SALE', 'EXCLUSIVE', 'BYQUANTITY'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

export const PRICE_TYPE_LABELS: Record<PriceType, string> = {
  BYQUANTITY: 'Por cantidad',
  NORMAL: 'Normal',
  EXCLUSIVE: 'Oferta exclusiva',
  SALE: 'Oferta',
};

/** Label for any price type string; unknown or missing types read 'Normal' (seed default). */
export function priceTypeLabel(type: string | null | undefined): string {
  return (PRICE_TYPE_LABELS as Record<string, string>)[type ?? ''] ?? 'Normal';
}

/** Currencies shown with two decimals; every other currency is shown without decimals. */
export const DECIMAL_CURRENCIES = ['USD', 'PAB', 'PEN', 'MXN'] as const;

export const PRICE_MODES = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'] as const;
export type PriceMode = (typeof PRICE_MODES)[number];
export const DEFAULT_PRICE_MODE: PriceMode = 'NORMAL_SALE_EXCLUSIVE_PRICE';

export const DPM_DEFAULTS = {
  pageSize: 10,
  pageSizeOptions: [5, 10, 15, 20, 25, 50],
  sort: 'desc',
  dpmValue: 10,
  priceMode: DEFAULT_PRICE_MODE,
} as const;

/** mpi_value used by the price-range request of the pricing screens. */
export const PRICING_PRICE_RANGE_MPI_VALUE = 5;
/** Default market-range width of the price index (PRODUCT.md). */
export const DEFAULT_MPI_VALUE = 5;

export const IMAGE_VERIFICATION = {
  pageSize: 25,
  correctThreshold: 0.975,
  incorrectThreshold: 0.94,
  defaultLowerThreshold: Number.MIN_SAFE_INTEGER,
  defaultUpperThreshold: Number.MAX_SAFE_INTEGER,
} as const;

export const PRODUCT_LIST_PAGE_SIZE = 10;
export const PROMOTION_RANGE_COUNT = 4;
export const PROMOTION_EXPIRATION_DAYS = 90;
export const DEFAULT_PRICE_RANGE_LABEL = 'Rango de precios';
export const RANKING_LABELS = { low: 'Más bajo', high: 'Más alto', own: 'Mi precio' } as const;
export const RANKING_STEPS = 9;
export const REPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const DEFAULT_REPORT_TYPE = 'match';
export const NO_NAME_PRODUCT = 'Producto registrado sin nombre';
export const SELLER_NOT_FOUND = 'eCommerce no encontrado';
export const BREADCRUMB_SEPARATOR = ' > ';

/** Home-card visibility rules (000 §6); configurable on the server, these are the seed's values. */
export const DEFAULT_BRAND_COMPARATOR_SELLERS = [5];
export const DEFAULT_IMAGE_VERIFICATION_SELLERS = [116, 125];

/** Request headers of the seed's module and pivot authorization. */
export const MODULE_HEADER = 'x-module-authorization';
export const PIVOT_HEADER = 'x-pivot-id';
