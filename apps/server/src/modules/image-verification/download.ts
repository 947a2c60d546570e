import { IMAGE_CLASS_LABELS, IMAGE_REVIEW_LABELS, type ImageItem } from '@vigia/domain';
import { type WorkbookColumn, workbookXlsx } from '../../lib/workbook.js';

// XLSX of the image-verification list: the rows of the current filter (every page, up to
// IMAGE_XLSX_MAX_ROWS), the comparison day as a date cell, similarity as a number with 4 decimals (the
// app's one workbook writer, lib/workbook.ts).

const text = (header: string, width = 16): WorkbookColumn => ({ header, kind: 'text', width });
export const IMAGE_XLSX_COLUMNS: WorkbookColumn[] = [
  { header: 'Fecha de comparación', kind: 'date', width: 14 },
  text('eCommerce'),
  text('SKU'),
  text('EAN'),
  text('Producto', 40),
  text('Marca'),
  { header: 'Similitud', kind: 'decimal', numFmt: '0.0000' },
  text('Estado'),
  text('Revisión'),
  text('Imagen'),
  text('Imagen de referencia'),
];

export function imageItemsXlsx(items: ImageItem[]): Promise<Buffer> {
  return workbookXlsx({
    name: 'Imágenes',
    columns: IMAGE_XLSX_COLUMNS,
    rows: items.map((i) => [
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
    ]),
  });
}
