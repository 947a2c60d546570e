import {
  notificationsRoutes as defs,
  NAMESPACE_LABELS,
  NOTIFICATION_NAMESPACES,
  type NotificationSubscription,
} from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf } from '../../lib/scope.js';
import { assertClassificationsLicensed } from '../../market/index.js';
import './sources.js';
import { verifyUnsubscribe } from './email.js';
import {
  licensedNamespaces,
  listNotifications,
  markAllRead,
  markRead,
  saveSubscription,
  stopEmails,
  unreadCount,
  userSubscriptions,
  userTimezone,
} from './queries.js';
import { defaultSubscription } from './recipients.js';

const page = (title: string, text: string) =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; color: #2d1b3d">
<h1 style="color: #6a1b9a">${title}</h1><p>${text}</p></body></html>`;

/** Notifications: list, unread count, mark read, subscriptions, one-click unsubscribe (jobs: jobs.ts). */
export default async function notificationsRoutes(app: FastifyInstance) {
  const { db, config } = app.deps;

  registerRoute(app, defs.list, async (req) => {
    const p = principalOf(req);
    const [r, timezone] = await Promise.all([
      listNotifications(db.pool, p.userId, p.license, req.query),
      userTimezone(db.pool, p.userId),
    ]);
    return { ...r, page: req.query.page, page_size: req.query.page_size, timezone };
  });

  registerRoute(app, defs.unreadCount, async (req) => {
    const p = principalOf(req);
    return { unread: await unreadCount(db.pool, p.userId, p.license) };
  });

  registerRoute(app, defs.markRead, async (req) => {
    const p = principalOf(req);
    if (!(await markRead(db.pool, p.userId, p.license, req.body.id))) throw notFound();
    return { unread: await unreadCount(db.pool, p.userId, p.license) };
  });

  registerRoute(app, defs.markAllRead, async (req) => {
    const p = principalOf(req);
    await markAllRead(db.pool, p.userId, p.license, req.body.namespace);
    return { unread: await unreadCount(db.pool, p.userId, p.license) };
  });

  registerRoute(app, defs.subscriptions, async (req) => {
    const p = principalOf(req);
    const [saved, timezone] = await Promise.all([
      userSubscriptions(db.pool, p.userId),
      userTimezone(db.pool, p.userId),
    ]);
    const licensed = new Set(licensedNamespaces(p.license));
    return {
      timezone,
      subscriptions: NOTIFICATION_NAMESPACES.map((ns) => ({
        ...(saved.find((s) => s.namespace === ns) ?? defaultSubscription(ns)),
        licensed: licensed.has(ns),
      })),
    };
  });

  registerRoute(app, defs.saveSubscription, async (req) => {
    const p = principalOf(req);
    const ns = req.body.namespace;
    if (!licensedNamespaces(p.license).includes(ns))
      throw forbidden(`Espacio no incluido en la licencia: ${ns}`, 'namespace_not_licensed');
    const outside = req.body.sellers.filter((s) => !p.license.sellers.includes(s));
    if (outside.length)
      throw forbidden(`eCommerce no incluido en la licencia: ${outside.join(', ')}`, 'seller_not_licensed');
    await assertClassificationsLicensed(db.pool, p.license, req.body.classifications);
    const sub: NotificationSubscription = {
      ...req.body,
      sellers: [...new Set(req.body.sellers)],
      brands: [...new Set(req.body.brands)],
      classifications: [...new Set(req.body.classifications)],
    };
    await saveSubscription(db.pool, p.userId, sub);
    return sub;
  });

  registerRoute(app, defs.unsubscribe, async (req, reply) => {
    const { u, ns, sig } = req.query;
    const ok = verifyUnsubscribe(config.JWT_SECRET, u, ns, sig) && (await stopEmails(db.pool, u, ns));
    if (!ok)
      throw badRequest(
        'Este enlace para dejar de recibir correos no es válido o ha sido modificado.',
        'sig',
        'invalid_signature',
      );
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Listo',
          `Ya no recibirás correos de «${NAMESPACE_LABELS[ns]}». Seguirás viendo estas notificaciones en Vigía; puedes cambiarlo en Notificaciones › Suscripciones.`,
        ),
      );
  });
}
