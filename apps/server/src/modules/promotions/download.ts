import {
  PROMOTION_KIND_PRICE_TYPE,
  PROMOTION_KINDS,
  type PromotionItemsResponse,
  type PromotionPricesResponse,
  type PromotionRangeResponse,
  type PromotionScatterResponse,
  priceTypeLabel,
} from '@vigia/domain';
import ExcelJS from 'exceljs';

// XLSX downloads of the promotions tables: one sheet, a header row, one row per number the screen shows.
// Every amount column names its currency (the answer's: the user's, converted as the screen converts).

type Cell = string | number | null;
export interface Sheet {
  name: string;
  /** A line above the header (e.g. "primeras N de M" when the file holds fewer rows than counted). */
  note?: string;
  header: string[];
  rows: Cell[][];
}

const pctCell = (v: number | null) => v;

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
          pctCell(w.percentage),
          w.promoted,
          w.published,
          w.spike ? 'Sí' : '',
        ]);
  return {
    name: 'Promociones por día',
    header: [
      'eCommerce',
      'Clasificación',
      'Semana',
      'Desde',
      'Hasta',
      '% en promoción',
      'Días-producto en promoción',
      'Días-producto publicados',
      'Pico',
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
    header: [
      'eCommerce',
      'Clasificación',
      'Duración (días)',
      '% de promociones',
      'Promociones',
      'En curso',
      `Precio normal promedio (${answers[0]?.currency ?? ''})`,
      `Precio promoción promedio (${answers[0]?.currency ?? ''})`,
      'Descuento promedio (%)',
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
    header: [
      'eCommerce',
      'Clasificación',
      'Formato',
      '% de días-producto',
      'Días-producto',
      'Días-producto publicados',
      'Promociones',
      `Precio normal promedio (${a.currency})`,
      `Precio promoción promedio (${a.currency})`,
      'Descuento promedio (%)',
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
    header: [
      'Clasificación',
      'eCommerce',
      `Precios desde (${answers[0]?.currency ?? ''})`,
      `Hasta (${answers[0]?.currency ?? ''})`,
      '% de promociones',
      'Promociones',
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
    header: ['eCommerce', `Precio desde (${a.currency})`, `Hasta (${a.currency})`, 'Productos'],
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
    header: [
      'Producto',
      'ID',
      'eCommerce',
      'Formato',
      `Precio normal (${a.currency})`,
      `Precio promoción (${a.currency})`,
      'Descuento (%)',
      'Primer día',
      'Último día',
      'En curso',
      'Días contados',
      'URL',
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

export async function sheetXlsx(sheet: Sheet): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Vigía';
  const ws = wb.addWorksheet(sheet.name.slice(0, 31));
  if (sheet.note) ws.addRow([sheet.note]);
  ws.addRow(sheet.header);
  ws.getRow(sheet.note ? 2 : 1).font = { bold: true };
  for (const r of sheet.rows) ws.addRow(r);
  ws.columns.forEach((c, i) => {
    c.width = i < 2 ? 28 : 16;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
