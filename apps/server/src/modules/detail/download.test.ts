import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { historyXlsx, warmXlsx } from './download.js';

describe('XLSX of a price history', () => {
  it('the start-up warm-up builds its workbooks without failing', async () => {
    await expect(warmXlsx(2)).resolves.toBeUndefined();
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
    expect(ws?.getRow(2).getCell(1).value).toBe('2026-11-01');
    expect(ws?.getRow(2).getCell(5).value).toBe(990);
  });
});
