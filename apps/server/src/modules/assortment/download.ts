import { type AssortmentProduct, type AssortmentRow, ASSORTMENT_XLSX_COLUMNS as C } from '@vigia/domain';
import { type WorkbookCell as Cell, type WorkbookColumn, workbookXlsx } from '../../lib/workbook.js';

// XLSX downloads of the assortment tables and drill-downs: the same rows the screens show (summary row
// first), numbers as numbers, written by the app's one workbook writer (lib/workbook.ts: dates as date
// cells, values rounded as on screen with the currency in their header).

const col = (header: string, kind: WorkbookColumn['kind'] = 'int'): WorkbookColumn => ({ header, kind });
const wide = (header: string): WorkbookColumn => ({ header, kind: 'text', width: 36 });

export function assortmentXlsx(
  kind: 'brand' | 'ecommerce' | 'stock',
  rows: AssortmentRow[],
  currency: string,
): Promise<Buffer> {
  const name = kind === 'brand' ? C.brand : C.seller;
  if (kind === 'stock') {
    return workbookXlsx({
      name: 'Disponibilidad',
      currency,
      columns: [
        wide(name),
        col(C.total_products),
        col(C.out_of_stock),
        col(C.availability, 'percent'),
        col(C.went_out_of_stock),
        col(C.back_in_stock),
        col(C.previous_went_out_of_stock),
      ],
      rows: rows.map((r) => [
        r.name,
        r.total_products,
        r.out_of_stock,
        r.availability,
        r.went_out_of_stock,
        r.back_in_stock,
        r.previous_went_out_of_stock,
      ]),
    });
  }
  return workbookXlsx({
    name: 'Surtido',
    currency,
    columns: [
      wide(name),
      col(C.total_products),
      col(C.previous_total_products),
      col(C.products_variation, 'percent'),
      col(C.total_value, 'money'),
      col(C.total_variation, 'percent'),
      col(C.average_value, 'money'),
      col(C.average_variation, 'percent'),
      col(C.participation, 'percent'),
    ],
    rows: rows.map((r) => [
      r.name,
      r.total_products,
      r.previous_total_products,
      r.products_variation,
      r.total_value,
      r.total_variation,
      r.average_value,
      r.average_variation,
      r.participation,
    ]),
  });
}

export function productsXlsx(items: AssortmentProduct[], stock: boolean, currency: string): Promise<Buffer> {
  const columns: WorkbookColumn[] = [
    wide('Producto'),
    col('ID', 'text'),
    col('SKU', 'text'),
    col('Marca', 'text'),
    col('eCommerce', 'text'),
    col('Precio', 'money'),
    col('Sin stock', 'text'),
    wide('URL'),
  ];
  if (stock) columns.push(col('Fecha', 'date'), col('Volvió', 'date'), col('Días sin stock'));
  return workbookXlsx({
    name: 'Productos',
    currency,
    columns,
    rows: items.map((i) => {
      const row: Cell[] = [
        i.name,
        i.product_id,
        i.sku,
        i.brand,
        i.seller_name,
        i.price,
        i.stock_out ? 'Sí' : 'No',
        i.url,
      ];
      if (stock) row.push(i.event_date, i.back_date, i.days_out);
      return row;
    }),
  });
}
