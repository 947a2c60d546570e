import { describe, expect, it } from 'vitest';
import {
  ASSORTMENT_FILE,
  historyFileName,
  IMAGE_VERIFICATION_FILE,
  PROMOTION_FILE,
  xlsxFileName,
} from './file-names.js';

describe('download file names (server and web fallback alike)', () => {
  it('names every screen in Spanish, with its dates', () => {
    expect(xlsxFileName(PROMOTION_FILE.level, [], '2026-10-05', '2026-10-11')).toBe(
      'promociones_por_dia_2026-10-05_2026-10-11.xlsx',
    );
    expect(xlsxFileName(PROMOTION_FILE['scatter-plot'], [], '2026-11-28', '2026-11-28')).toBe(
      'dispersion_de_precios_2026-11-28.xlsx',
    );
    expect(xlsxFileName(`${ASSORTMENT_FILE.stock}_productos`, ['Orbis'], '2026-10-01', '2026-10-31')).toBe(
      'cambio_de_disponibilidad_productos_Orbis_2026-10-01_2026-10-31.xlsx',
    );
    expect(xlsxFileName(IMAGE_VERIFICATION_FILE, [], null)).toBe('verificacion_de_imagenes.xlsx');
    expect(historyFileName('Mercado Lima', 'SKU 1/2', '2026-10-01', '2026-10-31', 'csv')).toBe(
      'historico_Mercado_Lima_SKU_1_2_2026-10-01_2026-10-31.csv',
    );
  });

  it('has no English screen names left', () => {
    const names = [
      ...Object.values(PROMOTION_FILE),
      ...Object.values(ASSORTMENT_FILE),
      IMAGE_VERIFICATION_FILE,
    ];
    for (const n of names)
      expect(n).not.toMatch(/(^|_)(level|duration|type|range|scatter|prices|brand|stock|image)(_|$)/);
  });
});
