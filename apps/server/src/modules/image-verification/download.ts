import { IMAGE_CLASS_LABELS, IMAGE_REVIEW_LABELS, type ImageItem } from '@vigia/domain';
import ExcelJS from 'exceljs';

// XLSX of the image-verification list: the rows of the current filter (every page, up to
// IMAGE_XLSX_MAX_ROWS), similarity as a number with 4 decimals.

export const IMAGE_XLSX_HEADER = [
  'Fecha de comparación',
  'eCommerce',
  'SKU',
  'EAN',
  'Producto',
  'Marca',
  'Similitud',
  'Estado',
  'Revisión',
  'Imagen',
  'Imagen de referencia',
];

export async function imageItemsXlsx(items: ImageItem[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Vigía';
  const ws = wb.addWorksheet('Imágenes');
  ws.addRow(IMAGE_XLSX_HEADER);
  ws.getRow(1).font = { bold: true };
  for (const i of items) {
    ws.addRow([
      i.comparisonDate,
      i.sellerName,
      i.sku,
      i.ean,
      i.name,
      i.brand,
      i.similarity,
      IMAGE_CLASS_LABELS[i.classification],
      i.review ? IMAGE_REVIEW_LABELS[i.review.decision] : null,
      i.imageUrl,
      i.referenceUrl,
    ]);
  }
  ws.getColumn(7).numFmt = '0.0000';
  ws.columns.forEach((c, k) => {
    c.width = k === 4 ? 40 : 16;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
