import { type AssortmentProduct, type AssortmentRow, ASSORTMENT_XLSX_COLUMNS as C } from '@vigia/domain';
import ExcelJS from 'exceljs';

// XLSX downloads of the assortment tables and drill-downs: the same rows the screens show (summary row
// first), numbers as numbers; every amount column names its currency (the answer's).

const inCurrency = (header: string, currency: string) => `${header} (${currency})`;

type Cell = string | number | null;

async function workbook(
  sheet: string,
  header: string[],
  rows: Cell[][],
  wide: number[] = [0],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Vigía';
  const ws = wb.addWorksheet(sheet);
  ws.addRow(header);
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  ws.columns.forEach((c, i) => {
    c.width = wide.includes(i) ? 36 : 16;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function assortmentXlsx(
  kind: 'brand' | 'ecommerce' | 'stock',
  rows: AssortmentRow[],
  currency: string,
): Promise<Buffer> {
  const name = kind === 'brand' ? C.brand : C.seller;
  if (kind === 'stock') {
    return workbook(
      'Disponibilidad',
      [
        name,
        C.total_products,
        C.out_of_stock,
        C.availability,
        C.went_out_of_stock,
        C.back_in_stock,
        C.previous_went_out_of_stock,
      ],
      rows.map((r) => [
        r.name,
        r.total_products,
        r.out_of_stock,
        r.availability,
        r.went_out_of_stock,
        r.back_in_stock,
        r.previous_went_out_of_stock,
      ]),
    );
  }
  return workbook(
    'Surtido',
    [
      name,
      C.total_products,
      C.previous_total_products,
      C.products_variation,
      inCurrency(C.total_value, currency),
      C.total_variation,
      inCurrency(C.average_value, currency),
      C.average_variation,
      C.participation,
    ],
    rows.map((r) => [
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
  );
}

export function productsXlsx(items: AssortmentProduct[], stock: boolean, currency: string): Promise<Buffer> {
  const header = [
    'Producto',
    'ID',
    'SKU',
    'Marca',
    'eCommerce',
    inCurrency('Precio', currency),
    'Sin stock',
    'URL',
  ];
  if (stock) header.push('Fecha', 'Volvió', 'Días sin stock');
  return workbook(
    'Productos',
    header,
    items.map((i) => {
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
    [0, 7],
  );
}
