import {
  PROMOTION_KIND_PRICE_TYPE,
  PROMOTION_KINDS,
  type PromotionItemsResponse,
  type PromotionPricesResponse,
  type PromotionRangeResponse,
  type PromotionScatterResponse,
  priceTypeLabel,
} from '@vigia/domain';
import {
  type WorkbookCell as Cell,
  type WorkbookSheet as Sheet,
  type WorkbookColumn,
  workbookXlsx,
} from '../../lib/workbook.js';

// XLSX downloads of the promotions tables: one sheet, a header row, one row per number the screen shows,
// written by the app's one workbook writer (lib/workbook.ts: weeks and days as date cells, prices rounded
// as on screen, every price header naming the currency).

export type { Sheet };

const col = (header: string, kind: WorkbookColumn['kind'] = 'text'): WorkbookColumn => ({ header, kind });

export function levelSheet(a: PromotionItemsResponse): Sheet {
  const rows: Cell[][] = [];
  for (const it of a.items)
    for (const c of it.classifications)
      for (const w of c.weeks ?? [])
        rows.push([
          it.seller.name,
          c.name,
          w.week,
          w.from,
          w.to,
          w.percentage,
          w.promoted,
          w.published,
          w.spike ? 'Sí' : '',
        ]);
  return {
    name: 'Promociones por día',
    currency: a.currency,
    columns: [
      col('eCommerce'),
      col('Clasificación'),
      col('Semana', 'date'),
      col('Desde', 'date'),
      col('Hasta', 'date'),
      col('% en promoción', 'percent'),
      col('Días-producto en promoción', 'int'),
      col('Días-producto publicados', 'int'),
      col('Pico'),
    ],
    rows,
  };
}

export function durationSheet(answers: PromotionItemsResponse[]): Sheet {
  const rows: Cell[][] = [];
  for (const a of answers)
    for (const it of a.items)
      for (const c of it.classifications)
        for (const d of c.days ?? [])
          rows.push([
            it.seller.name,
            c.name,
            d.day,
            d.percentage,
            d.count,
            d.running,
            d.prices.normal,
            d.prices.promotion,
            d.prices.discount,
          ]);
  return {
    name: 'Promociones por duración',
    currency: answers[0]?.currency,
    columns: [
      col('eCommerce'),
      col('Clasificación'),
      col('Duración (días)', 'int'),
      col('% de promociones', 'percent'),
      col('Promociones', 'int'),
      col('En curso', 'int'),
      col('Precio normal promedio', 'money'),
      col('Precio promoción promedio', 'money'),
      col('Descuento promedio (%)', 'percent'),
    ],
    rows,
  };
}

export function typeSheet(a: PromotionItemsResponse): Sheet {
  const rows: Cell[][] = [];
  for (const it of a.items)
    for (const c of it.classifications)
      for (const k of PROMOTION_KINDS) {
        const f = c[k];
        if (f)
          rows.push([
            it.seller.name,
            c.name,
            priceTypeLabel(PROMOTION_KIND_PRICE_TYPE[k]),
            f.percentage,
            f.promoted,
            c.published ?? 0,
            f.count,
            f.prices.normal,
            f.prices.promotion,
            f.prices.discount,
          ]);
      }
  return {
    name: 'Promociones por formato',
    currency: a.currency,
    columns: [
      col('eCommerce'),
      col('Clasificación'),
      col('Formato'),
      col('% de días-producto', 'percent'),
      col('Días-producto', 'int'),
      col('Días-producto publicados', 'int'),
      col('Promociones', 'int'),
      col('Precio normal promedio', 'money'),
      col('Precio promoción promedio', 'money'),
      col('Descuento promedio (%)', 'percent'),
    ],
    rows,
  };
}

export function rangeSheet(answers: PromotionRangeResponse[]): Sheet {
  const rows: Cell[][] = [];
  for (const a of answers)
    for (const r of a.items)
      for (const s of r.sellers)
        s.prices.forEach((p, i) => {
          rows.push([
            r.classification.name,
            s.name,
            r.range_points[i] ?? null,
            r.range_points[i + 1] ?? null,
            p.price,
            p.count,
          ]);
        });
  return {
    name: 'Promociones por rango',
    currency: answers[0]?.currency,
    columns: [
      col('Clasificación'),
      col('eCommerce'),
      col('Precios desde', 'money'),
      col('Precios hasta', 'money'),
      col('% de promociones', 'percent'),
      col('Promociones', 'int'),
    ],
    rows,
  };
}

export function scatterSheet(a: PromotionScatterResponse): Sheet {
  const rows: Cell[][] = [];
  for (const it of a.items)
    for (const p of it.prices) rows.push([it.seller.name, p.price, p.price + a.bucket, p.count]);
  return {
    name: 'Dispersión',
    currency: a.currency,
    columns: [
      col('eCommerce'),
      col('Precio desde', 'money'),
      col('Precio hasta', 'money'),
      col('Productos', 'int'),
    ],
    rows,
  };
}

export function pricesSheet(a: PromotionPricesResponse): Sheet {
  return {
    name: 'Productos',
    note:
      a.items.length < a.total
        ? `Primeras ${a.items.length} de ${a.total} promociones (el límite de un archivo).`
        : undefined,
    currency: a.currency,
    columns: [
      { header: 'Producto', kind: 'text', width: 40 },
      col('ID'),
      col('eCommerce'),
      col('Formato'),
      col('Precio normal', 'money'),
      col('Precio promoción', 'money'),
      col('Descuento (%)', 'percent'),
      col('Primer día', 'date'),
      col('Último día', 'date'),
      col('En curso'),
      col('Días contados', 'int'),
      { header: 'URL', kind: 'text', width: 40 },
    ],
    rows: a.items.map((p) => [
      p.name,
      p.product_id,
      p.seller.name,
      priceTypeLabel(p.price_type),
      p.normal_price,
      p.promotion_price,
      p.discount,
      p.first_day,
      p.last_day,
      p.running ? 'Sí' : 'No',
      p.days,
      p.url,
    ]),
  };
}

/** The sheet as XLSX (run in the export pool). */
export function sheetXlsx(sheet: Sheet): Promise<Buffer> {
  return workbookXlsx(sheet);
}
