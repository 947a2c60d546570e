// Notices from the features whose events are not market changes seen at ingest: a report ready or failed
// (reports' onReportTaskFinished) and a picture check turning incorrect (image verification's
// onCheckClassified). Both go through notifyUsers, so subscriptions, license and delivery apply as for
// every other notice.
import { IMAGE_VERIFICATION, REPORT_TYPE_LABELS } from '@vigia/domain';
import type pg from 'pg';
import { type CheckClassifiedEvent, onCheckClassified } from '../image-verification/index.js';
import { onReportTaskFinished } from '../reports/index.js';
import { notifyUsers } from './index.js';

/** A check made longer ago than this many days is history (an upgrade's backfill), not news. */
const IMAGE_NEWS_DAYS = 2;

onReportTaskFinished(async (task, { pool }) => {
  const label = REPORT_TYPE_LABELS[task.params.report_type] ?? task.params.report_type;
  const ok = task.status === 'succeeded';
  await notifyUsers(pool, {
    namespace: 'reports',
    kind: ok ? 'report_ready' : 'report_failed',
    userIds: [task.user_id],
    title: ok ? `Reporte ${label} listo` : `Reporte ${label} fallido`,
    body: ok
      ? `Tu reporte ${label} (${task.file_name ?? 'archivo'}) está listo para descargar.`
      : `Tu reporte ${label} falló. ${task.error ?? 'No fue posible generar el reporte'}.`,
    link: '/app/reports',
    size: 0,
  });
});

/** One notice per seller and organisation with the image module: how many of its pictures turned incorrect. */
export async function notifyIncorrectPictures(
  pool: pg.Pool,
  events: CheckClassifiedEvent[],
): Promise<number> {
  const since = Date.now() - IMAGE_NEWS_DAYS * 86_400_000;
  const recent = events.filter((e) => e.classification === 'incorrect' && e.checkedAt.getTime() >= since);
  if (!recent.length) return 0;
  // "Turned" incorrect: the listing's previous check showed another picture, or this one was not
  // incorrect then; a listing's first check is news too. A picture measured for the first time that
  // was already there before (a fresh database's or an upgrade's backfill) is not.
  const { rows: turned } = await pool.query<{ product_id: string; at: Date }>(
    `select e.product_id::text, e.at
       from unnest($1::bigint[], $2::timestamptz[], $3::text[]) as e(product_id, at, url)
       left join lateral (
         select c.image_url, c.similarity from image_checks c
          where c.product_id = e.product_id and c.checked_at < e.at
          order by c.checked_at desc limit 1) prev on true
      where prev.image_url is null or prev.image_url <> e.url or prev.similarity >= $4`,
    [
      recent.map((e) => e.productId),
      recent.map((e) => e.checkedAt),
      recent.map((e) => e.imageUrl),
      IMAGE_VERIFICATION.incorrectThreshold,
    ],
  );
  const news = new Set(turned.map((r) => `${r.product_id}:${r.at.getTime()}`));
  const bySeller = new Map<number, Set<number>>();
  for (const e of recent) {
    if (!news.has(`${e.productId}:${e.checkedAt.getTime()}`)) continue;
    const products = bySeller.get(e.sellerId) ?? new Set<number>();
    products.add(e.productId);
    bySeller.set(e.sellerId, products);
  }
  if (!bySeller.size) return 0;
  const { rows: orgs } = await pool.query<{ org_id: number }>(
    `select l.org_id from licenses l join license_modules m on m.license_id = l.id
      where m.module_code = 'image_verification'`,
  );
  const { rows: sellers } = await pool.query<{ id: number; name: string }>(
    'select id, name from sellers where id = any($1)',
    [[...bySeller.keys()]],
  );
  let created = 0;
  for (const [sellerId, products] of bySeller) {
    const seller = sellers.find((s) => s.id === sellerId)?.name ?? `eCommerce ${sellerId}`;
    const n = products.size;
    const one = n === 1 ? [...products][0] : null;
    for (const { org_id } of orgs) {
      created += await notifyUsers(pool, {
        namespace: 'images',
        kind: 'image_incorrect',
        orgId: org_id,
        sellerId,
        productId: one,
        title: `Imágenes incorrectas en ${seller}`,
        body:
          n === 1
            ? `${seller} muestra una imagen que no coincide con tu referencia: revísala antes de que afecte la venta.`
            : `${seller} muestra ${n} imágenes que no coinciden con tus referencias: revísalas antes de que afecten la venta.`,
        link: '/app/image-verification?imageClass=incorrect',
        size: n,
      });
    }
  }
  return created;
}

onCheckClassified('notifications', (events, { pool }) =>
  notifyIncorrectPictures(pool, events).then(() => {}),
);
