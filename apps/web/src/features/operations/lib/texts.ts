import { type CrawlPage, type FeedField, type FeedSource, formatNumber, type ImportRun } from '@vigia/domain';

// Spanish texts of Operaciones (ours: the seeds have no such screen).

export const OT = {
  description:
    'Registra tu tienda y a tus competidores, trae sus catálogos y precios desde feeds (archivo o URL) o por API, y revisa cada importación.',
  retry: 'Reintentar',
  cancel: 'Cancelar',
  save: 'Guardar',
  close: 'Cerrar',
  zoneTitle: 'Zona horaria del mercado',
  zoneBody:
    'Define qué es un día para los períodos, ventanas y programaciones de la organización (las horas se muestran en la zona de cada usuario, en su perfil).',
  zoneLabel: 'Zona horaria (IANA)',
  zoneLoading: 'Cargando la zona del mercado…',
  zoneError: 'No se pudo leer la zona del mercado',
  zoneSaved: (zone: string) => `Zona del mercado guardada: ${zone}`,
  sellersTitle: 'eCommerce',
  sellersLoading: 'Cargando eCommerce…',
  sellersError: 'No fue posible obtener los eCommerce',
  sellersEmpty: 'Aún no hay eCommerce',
  addSeller: 'Registrar eCommerce',
  sellerName: 'Nombre',
  country: 'País (código, p. ej. CL)',
  currency: 'Moneda (código, p. ej. CLP)',
  website: 'Sitio web',
  own: 'Es mi tienda (pivote)',
  ownChip: 'Propia',
  sellerSaved: 'eCommerce registrado',
  freshness: 'Frescura',
  never: 'Sin datos importados',
  stale: 'Desactualizado',
  sourcesTitle: 'Fuentes de datos',
  sourcesLoading: 'Cargando fuentes…',
  sourcesError: 'No fue posible obtener las fuentes',
  sourcesEmpty: 'Aún no hay fuentes',
  sourcesEmptyBody: 'Agrega un feed (archivo o URL) a un eCommerce y pulsa «Importar ahora».',
  addSource: 'Agregar fuente',
  sourceName: 'Nombre de la fuente',
  seller: 'eCommerce',
  origin: 'Origen',
  originUpload: 'Archivo subido',
  originUrl: 'URL (http/https)',
  url: 'URL del feed',
  file: 'Archivo del feed',
  chooseFile: 'Elegir archivo',
  format: 'Formato',
  mode: 'Modo',
  modeFull: 'Completo (despublica lo que ya no aparece)',
  modeDelta: 'Parcial (solo cambios)',
  schedule: 'Programación (cron, hora de la organización)',
  scheduleHelp: 'Ej.: «0 6 * * *» todos los días a las 06:00. Vacío: solo manual.',
  sourceSaved: 'Fuente guardada',
  uploaded: 'Archivo subido',
  importNow: 'Importar ahora',
  importing: 'Importando…',
  mapColumns: 'Asignar columnas',
  deleteSource: 'Eliminar',
  sourceDeleted: 'Fuente eliminada',
  lastRun: 'Última ejecución',
  noRuns: 'Sin ejecuciones',
  mappingTitle: 'Asignar columnas y vista previa',
  mappingHelp:
    'Elige qué columna del archivo corresponde a cada campo de Vigía. El id y el precio son obligatorios.',
  noColumn: '— (sin columna)',
  previewTitle: 'Primeras filas con la asignación aplicada',
  previewLoading: 'Leyendo el archivo…',
  previewError: 'No fue posible leer el archivo',
  saveMapping: 'Guardar asignación',
  mappingSaved: 'Asignación guardada',
  runsTitle: 'Ejecuciones',
  runsLoading: 'Cargando ejecuciones…',
  runsError: 'No fue posible obtener las ejecuciones',
  runsEmpty: 'Aún no hay ejecuciones',
  downloadRejections: 'Descargar rechazos',
  keysTitle: 'Claves de API',
  keysLoading: 'Cargando claves…',
  keysError: 'No fue posible obtener las claves',
  keysEmpty: 'Aún no hay claves de API',
  keysEmptyBody: 'Crea una clave para que tus sistemas envíen observaciones a POST /v1/ingest/observations.',
  addKey: 'Crear clave',
  keyName: 'Nombre de la clave',
  keySellers: 'eCommerce permitidos',
  keyCreatedTitle: 'Clave creada',
  keyCreatedBody: 'Copia la clave ahora: no se volverá a mostrar (se guarda cifrada).',
  revoke: 'Revocar',
  revoked: 'Revocada',
  keyRevoked: 'Clave revocada',
  lastUse: 'Último uso',
  neverUsed: 'Nunca',
  failed: 'No fue posible completar la acción',
  kind: 'Tipo de fuente',
  kindFeed: 'Feed (archivo o URL)',
  kindCrawl: 'Rastreo de páginas',
  crawlUrls: 'URL de páginas de producto (una por línea)',
  crawlUrlsHelp: (n: number) => `${formatNumber(n)} URL (hasta 100.000)`,
  crawlUrlsFile: 'Cargar URL desde un archivo de texto',
  crawlSitemaps: 'Sitemaps (uno por línea; índices y .xml.gz incluidos)',
  crawlPattern: 'Patrón de URL (opcional)',
  crawlPatternHelp: 'Solo las URL de los sitemaps que contienen este texto, o /expresión regular/.',
  crawlNeedsUrl: 'Indica al menos una URL de producto o un sitemap.',
  crawlSummary: (c: NonNullable<FeedSource['crawl']>) =>
    [
      c.urls ? `${formatNumber(c.urls)} URL` : null,
      c.sitemaps.length
        ? `${formatNumber(c.sitemaps.length)} sitemap${c.sitemaps.length === 1 ? '' : 's'}`
        : null,
      c.pattern ? `patrón «${c.pattern}»` : null,
    ]
      .filter(Boolean)
      .join(' · '),
  crawlProgress: (p: NonNullable<ImportRun['pages']>) =>
    `${formatNumber(p.planned)} planificadas · ${formatNumber(p.unchanged)} sin cambios (304) · ${formatNumber(p.extracted)} extraídas · ${formatNumber(p.rejected)} rechazadas · ${formatNumber(p.failed)} fallidas`,
  viewPages: 'Ver páginas',
  pagesTitle: (id: number) => `Páginas del rastreo #${id}`,
  pagesLoading: 'Cargando páginas…',
  pagesError: 'No fue posible obtener las páginas',
  pagesEmpty: 'Ninguna página en este estado',
  pagesFilter: 'Estado',
  pagesAll: 'Todas',
  retryFailed: 'Reintentar fallidas',
  retryQueued: 'Se encoló un rastreo con las páginas fallidas',
  pageState: {
    planned: 'Planificada',
    unchanged: 'Sin cambios (304)',
    extracted: 'Extraída',
    rejected: 'Rechazada',
    failed: 'Fallida',
  } satisfies Record<CrawlPage['state'], string>,
  col: {
    name: 'Nombre',
    country: 'País',
    currency: 'Moneda',
    site: 'Sitio web',
    freshness: 'Frescura',
    source: 'Fuente',
    seller: 'eCommerce',
    format: 'Formato',
    schedule: 'Programación',
    last: 'Última ejecución',
    actions: 'Acciones',
    status: 'Estado',
    when: 'Inicio',
    duration: 'Duración',
    read: 'Leídas',
    written: 'Escritas',
    changed: 'Con cambios',
    rejected: 'Rechazadas',
    prefix: 'Prefijo',
    sellers: 'eCommerce',
    created: 'Creada',
    line: 'Línea',
    id: 'Id',
    title: 'Título',
    price: 'Precio',
    sale: 'Oferta',
    result: 'Resultado',
    url: 'URL',
    http: 'HTTP',
    reason: 'Motivo',
  },
  status: { queued: 'En cola', running: 'Importando', succeeded: 'Completada', failed: 'Fallida' } as const,
  trigger: { manual: 'Manual', schedule: 'Programada', cli: 'Línea de comandos', api: 'API' } as Record<
    string,
    string
  >,
  progress: (read: number, written: number, rejected: number) =>
    `${formatNumber(read)} leídas · ${formatNumber(written)} escritas · ${formatNumber(rejected)} rechazadas`,
};

export const FORMAT_LABELS: Record<FeedSource['format'], string> = {
  'schema-org': 'Rastreo de páginas (schema.org)',
  'merchant-xml': 'Google Merchant XML (RSS/Atom)',
  'merchant-tsv': 'Google Merchant TSV',
  csv: 'CSV/TSV con columnas asignadas',
};

export const FIELD_LABELS: Record<FeedField, string> = {
  id: 'Id del producto',
  title: 'Título',
  description: 'Descripción',
  link: 'URL del producto',
  image_link: 'URL de la imagen',
  price: 'Precio',
  sale_price: 'Precio oferta',
  sale_price_effective_date: 'Vigencia de la oferta',
  availability: 'Disponibilidad',
  brand: 'Marca',
  gtin: 'GTIN / EAN',
  mpn: 'MPN / SKU',
  product_type: 'Categoría (A > B > C)',
  google_product_category: 'Categoría de Google',
  condition: 'Condición',
};

/** "hace 3 h", "hace 5 min", "hace 2 días" from an ISO instant. */
export function timeAgo(iso: string | null, now = Date.now()): string {
  if (!iso) return OT.never;
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return 'actualizado hace instantes';
  const m = Math.round(s / 60);
  if (m < 60) return `actualizado hace ${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `actualizado hace ${h} h`;
  return `actualizado hace ${Math.round(h / 24)} días`;
}

/** Duration in ms → "12,3 s", "2 min 5 s". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 60_000) return `${formatNumber(ms / 1000, 1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
