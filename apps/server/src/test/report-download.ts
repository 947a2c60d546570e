import { reportTasksResponse } from '@vigia/domain';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';

// A report asked for, built by the worker, signed and downloaded as the web does it (tests).

/** Requests a report (`payload` of POST /v1/navigation-reports/, format xlsx) and returns its rows. */
export async function downloadReport(
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
): Promise<unknown[][]> {
  const req = await app.inject({ method: 'POST', url: '/v1/navigation-reports/', headers, payload });
  if (req.statusCode !== 200) throw new Error(`report refused: ${req.statusCode} ${req.body}`);
  const id = req.json().id as string;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = await app.inject({ method: 'GET', url: '/v1/navigation-reports/', headers });
    const task = reportTasksResponse.parse(list.json()).items.find((t) => t.id === id);
    if (task?.status === 'failed') throw new Error(`report failed: ${task.error}`);
    if (task?.status === 'succeeded') {
      const signed = await app.inject({
        method: 'POST',
        url: '/v1/navigation-reports/sign-report/',
        headers,
        payload: { gs_url: task.gs_url },
      });
      const file = await app.inject({ method: 'GET', url: signed.json().url });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      wb.worksheets[0].eachRow({ includeEmpty: false }, (row) => {
        rows.push((row.values as unknown[]).slice(1));
      });
      return rows;
    }
    if (Date.now() > deadline) throw new Error(`report still ${task?.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
