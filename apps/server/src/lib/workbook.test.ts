import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  fileNamePart,
  moneyHeader,
  namesPart,
  openXlsxStream,
  workbookXlsx,
  xlsxFileName,
} from './workbook.js';

async function open(buf: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Uint8Array.from(buf).buffer);
  return wb.worksheets[0];
}

const columns = [
  { header: 'Producto', kind: 'text' as const },
  { header: 'Día', kind: 'date' as const },
  { header: 'Precio promoción', kind: 'money' as const },
  { header: 'Precio normal (CLP)', kind: 'money' as const },
  { header: 'Descuento (%)', kind: 'percent' as const },
];

describe('the one workbook writer', () => {
  it('writes dates as date cells, money rounded as on screen and named by its currency', async () => {
    const ws = await open(
      await workbookXlsx({
        name: 'Productos',
        currency: 'CLP',
        columns,
        rows: [['Leche', '2026-11-28', 5838.96, 7299.5, 20.04]],
      }),
    );
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Producto',
      'Día',
      'Precio promoción (CLP)',
      'Precio normal (CLP)', // already named: not twice
      'Descuento (%)',
    ]);
    expect(ws.getRow(1).font?.bold).toBe(true);
    const day = ws.getCell('B2');
    expect(day.value).toBeInstanceOf(Date);
    expect((day.value as Date).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    expect(day.numFmt).toBe('dd-mm-yyyy');
    // CLP: no decimals, as formatPrice shows $5.839
    expect(ws.getCell('C2').value).toBe(5839);
    expect(ws.getCell('D2').value).toBe(7300);
    expect(ws.getCell('C2').numFmt).toBe('#,##0');
    expect(ws.getCell('E2').value).toBe(20.04);
  });

  it('keeps two decimals in the currencies that have them (USD, PAB, PEN, MXN)', async () => {
    for (const currency of ['USD', 'PAB', 'PEN', 'MXN']) {
      const ws = await open(
        await workbookXlsx({ name: 'x', currency, columns, rows: [['a', null, 5838.956, 12, null]] }),
      );
      expect(ws.getCell('C1').value).toBe(`Precio promoción (${currency})`);
      expect(ws.getCell('C2').value).toBe(5838.96);
      expect(ws.getCell('C2').numFmt).toBe('#,##0.00');
      expect(ws.getCell('D1').value).toBe('Precio normal (CLP)'); // a header naming its own currency stays
    }
  });

  it('puts a note above a bold header', async () => {
    const ws = await open(
      await workbookXlsx({
        name: 'n',
        note: 'Primeras 2 de 3',
        columns,
        rows: [['a', '2026-01-02', 1, 2, 3]],
      }),
    );
    expect(ws.getCell('A1').value).toBe('Primeras 2 de 3');
    expect(ws.getRow(2).font?.bold).toBe(true);
    expect(ws.getCell('B3').value).toBeInstanceOf(Date);
  });

  it('streams the same workbook (the reports)', async () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((r) => stream.on('end', r));
    const w = openXlsxStream({ stream, sheetName: 'Reporte', columns, currency: 'CLP' });
    w.addRows([['Leche', '2026-11-28 13:45', 1234.5, 99.4, 10]]);
    await w.commit();
    await done;
    const ws = await open(Buffer.concat(chunks));
    expect(ws.getCell('C1').value).toBe('Precio promoción (CLP)');
    expect(ws.getCell('B2').value).toBeInstanceOf(Date);
    expect(ws.getCell('C2').value).toBe(1235);
  });

  it('names files in Spanish with the screen, the filters and the dates, sanitised', () => {
    expect(xlsxFileName('promociones_por_dia', ['Hogar Total'], '2026-11-28', '2026-11-28')).toBe(
      'promociones_por_dia_Hogar-Total_2026-11-28.xlsx',
    );
    expect(
      xlsxFileName(
        'promociones_productos',
        ['Electrohogar', null, 'semana-2026-10-05'],
        '2026-10-05',
        '2026-10-11',
      ),
    ).toBe('promociones_productos_Electrohogar_semana-2026-10-05_2026-10-05_2026-10-11.xlsx');
    expect(fileNamePart('Línea Blanca / "Cocción"; ../etc')).toBe('Linea-Blanca-Coccion-etc');
    expect(xlsxFileName('surtido', ['"; rm -rf /'], 'nope')).toBe('surtido_rm-rf.xlsx');
    expect(namesPart(['Hogar', 'Tecnología', 'Deportes'])).toBe('Hogar+Tecnologia+1');
    expect(moneyHeader('Precio', null)).toBe('Precio');
    expect(xlsxFileName('a', ['x'.repeat(500)], null).length).toBeLessThan(60);
  });
});
