import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { moduleBeside, task, warmExportPool } from '../../platform/pool/index.js';
import { historyCsv, historyXlsx, warmInput } from './download.js';

describe('XLSX of a price history', () => {
  it('the start-up warm-up builds its workbooks in the export pool without failing', async () => {
    const xlsx = task(moduleBeside(import.meta.url, './download'), 'historyXlsx', historyXlsx);
    await expect(warmExportPool(xlsx, [warmInput()], 2)).resolves.toBeUndefined();
  });

  it('one header row and one row per day, readable back', async () => {
    const buf = await historyXlsx({
      sellerName: 'Mercado Central',
      productId: 'P-1',
      name: 'Leche entera 1 L',
      currency: 'CLP',
      prices: [
        {
          date: '2026-11-01',
          price: 990,
          normal_price: 1190,
          sale_price: 990,
          exclusive_price: null,
          price_type: 'SALE',
          stock_out: false,
        },
      ],
    });
    expect(buf.subarray(0, 2).toString()).toBe('PK');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Uint8Array.from(buf).buffer);
    const ws = wb.getWorksheet('Histórico');
    expect(ws?.rowCount).toBe(2);
    // a real date cell (shown dd-mm-yyyy), not text
    expect(ws?.getRow(2).getCell(1).value).toEqual(new Date(Date.UTC(2026, 10, 1)));
    expect(ws?.getRow(2).getCell(1).numFmt).toBe('dd-mm-yyyy');
    expect(ws?.getRow(2).getCell(5).value).toBe(990);
  });

  it('CSV for Spanish spreadsheets: ";" between cells, "," decimals, quotes where needed', () => {
    const csv = historyCsv({
      sellerName: 'Tienda; Uno',
      productId: 'P-1',
      name: 'Vino "Reserva" 750 ml',
      currency: 'USD',
      prices: [
        {
          date: '2026-11-01',
          price: 12.5,
          normal_price: 14.99,
          sale_price: 12.5,
          exclusive_price: null,
          price_type: 'SALE',
          stock_out: false,
        },
      ],
    }).toString('utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[1]).toBe(
      '2026-11-01;"Tienda; Uno";P-1;"Vino ""Reserva"" 750 ml";12,5;14,99;12,5;;Oferta;Disponible;USD',
    );
  });
});
