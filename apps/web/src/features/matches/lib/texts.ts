import { formatNumber, type MatchItem } from '@vigia/domain';

// Spanish texts of Coincidencias.

export const MATCH_TEXT = {
  description:
    'Publicaciones de la competencia que el emparejamiento no pudo decidir solo: compara y decide con el teclado.',
  keys: 'Teclado: A aceptar · R rechazar · S saltar · → siguiente · ← anterior · U deshacer la última decisión',
  empty: 'No hay coincidencias por revisar con estos filtros.',
  emptyHint: 'Cambia el estado, el eCommerce, la marca, la clasificación, el motivo o el puntaje.',
  error: 'No se pudieron cargar las coincidencias.',
  retry: 'Reintentar',
  accept: 'Aceptar (A)',
  reject: 'Rechazar (R)',
  skip: 'Saltar (S)',
  undo: 'Deshacer (U)',
  bulk: 'Aceptar todas las de la marca',
  bulkDone: (n: number) => `${n} coincidencias aceptadas`,
  decided: { accept: 'Coincidencia aceptada', reject: 'Coincidencia rechazada', undo: 'Decisión deshecha' },
  pivot: 'Producto del pivote',
  candidate: 'Publicación candidata',
  score: 'Puntaje',
  reason: 'Motivo',
  minScore: 'Puntaje mínimo',
  maxScore: 'Puntaje máximo',
  rangeError: 'El mínimo no puede ser mayor que el máximo',
  allReasons: 'Todos',
  brands: 'Marcas',
  classifications: 'Clasificaciones',
  seller: 'eCommerce',
  allSellers: 'Todos',
  status: 'Estado',
  position: (i: number, n: number, total: number) =>
    `${formatNumber(i)} de ${formatNumber(n)} en esta página · ${formatNumber(total)} en total`,
  report: 'Reportar coincidencia incorrecta',
  reported: 'Coincidencia reportada: vuelve a revisión',
  productMatches: 'Coincidencias de este producto',
  noProductMatches: 'Este producto no tiene coincidencias con otros eCommerce.',
  openStore: 'Ver en la tienda',
} as const;

export const STATUS_LABEL: Record<MatchItem['status'] | 'auto', string> = {
  suggested: 'Por revisar',
  auto: 'Automáticas',
  confirmed: 'Confirmadas',
  rejected: 'Rechazadas',
};

export const SOURCE_LABEL: Record<MatchItem['source'], string> = {
  ean: 'EAN igual',
  gtin: 'GTIN igual',
  mpn: 'Número de parte igual',
  auto: 'Título (automática)',
  title: 'Título (sugerida)',
  manual: 'Manual',
  anchor: 'Referencia del grupo',
};

export const PART_LABEL: Record<MatchItem['parts'][number]['part'], string> = {
  brand: 'Marca',
  quantity: 'Cantidad',
  pack: 'Pack',
  model: 'Modelo',
  variant: 'Variante',
  name: 'Nombre',
};

export const VERDICT_LABEL: Record<MatchItem['parts'][number]['verdict'], string> = {
  agree: 'coincide',
  disagree: 'no coincide',
  missing: 'falta en uno',
};
