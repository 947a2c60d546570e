import { CSV_BOM, csvLine } from '../../lib/csv.js';

// A feed run's rejections as a CSV download (GET /v1/operations/run-rejections/:id): one line per refused
// row (its line in the file, its id, the reason). Written in the export pool (platform/pool download()):
// a run of a 100,000-item feed can have as many lines.

export interface RejectionRow {
  line: number;
  product_id: string | null;
  reason: string;
}

export function rejectionsCsv(rows: RejectionRow[]): Buffer {
  const lines = [['línea', 'id', 'motivo'], ...rows.map((r) => [r.line, r.product_id, r.reason])].map(
    csvLine,
  );
  return Buffer.from(CSV_BOM + lines.join(''), 'utf8');
}
