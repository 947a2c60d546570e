import { formatNumber } from '@vigia/domain';

// Spanish texts of the reports screen (the seed gives no messages for reports and subscriptions: ours).

export const RT = {
  description:
    'Pide un reporte en segundo plano y descárgalo cuando esté listo, o suscribe un correo para recibirlo por e-mail.',
  requestTitle: 'Nuevo reporte',
  type: 'Tipo de reporte',
  format: 'Formato',
  from: 'Desde',
  to: 'Hasta',
  request: 'Generar reporte',
  requesting: 'Solicitando…',
  requested: 'Reporte solicitado: lo verás avanzar en la tabla',
  requestFailed: 'No fue posible solicitar el reporte',
  scopeNote: (pivot: string, sellers: number, currency: string) =>
    `Pivote ${pivot} · ${sellers} eCommerce seleccionados · ${currency} (de tu configuración)`,
  tasksTitle: 'Mis reportes',
  loadingTasks: 'Cargando reportes…',
  tasksError: 'No fue posible obtener tus reportes',
  retry: 'Reintentar',
  emptyTasks: 'Aún no has pedido reportes',
  emptyTasksBody: 'Elige el tipo, el formato y el rango de fechas, y pulsa «Generar reporte».',
  col: {
    type: 'Tipo',
    range: 'Rango',
    format: 'Formato',
    size: 'Tamaño',
    state: 'Estado',
    when: 'Solicitado',
    actions: 'Acciones',
  },
  download: 'Descargar',
  downloadFailed: 'No fue posible descargar el reporte',
  expired: 'Archivo vencido',
  scheduled: 'Por suscripción',
  status: { queued: 'En cola', running: 'Generando', succeeded: 'Listo', failed: 'Fallido' } as Record<
    string,
    string
  >,
  rows: (done: number, total: number | null) =>
    total === null ? `${formatNumber(done)} filas` : `${formatNumber(done)} de ${formatNumber(total)} filas`,
  subsTitle: 'Suscripciones por correo',
  subsBody: 'Reportes enviados por e-mail cada día o cada semana, a una hora local del destinatario.',
  subscribe: 'Suscribir correo',
  unsubscribe: 'Cancelar suscripción',
  sendNow: 'Enviar ahora',
  sendNowDone: 'Envío en preparación: llegará por correo cuando el reporte esté listo.',
  email: 'Correo',
  frequency: 'Frecuencia',
  hour: 'Hora local',
  weekday: 'Día',
  save: 'Guardar',
  cancel: 'Cancelar',
  confirmUnsubscribe: 'Cancelar suscripción',
  unsubscribeBody: 'El correo dejará de recibir este reporte.',
  subscribed: 'Suscripción guardada',
  unsubscribed: 'Suscripción cancelada',
  subscribeFailed: 'No fue posible guardar la suscripción',
  unsubscribeFailed: 'No fue posible cancelar la suscripción',
  loadingSubs: 'Cargando suscripciones…',
  subsError: 'No fue posible obtener las suscripciones',
  emptySubs: 'Este correo no tiene suscripciones',
  filterEmail: 'Correo de las suscripciones',
  next: 'Próximo envío',
  lastSend: 'Último envío',
  never: 'Sin envíos aún',
  attempts: (n: number) => (n === 1 ? '1 intento' : `${n} intentos`),
  retryAt: 'reintento',
  asLink: 'enviado como enlace',
  errors: {
    required: 'Indica ambas fechas',
    order: 'La fecha «Hasta» es anterior a «Desde»',
    tooLong: (max: number) => `El rango no puede superar ${max} días`,
    email: 'Correo no válido',
  },
};

/** Bytes as es-CL text: 812 B, 12,4 KB, 3,1 MB. */
export function formatBytes(n: number | null): string {
  if (n === null) return '—';
  if (n < 1024) return `${formatNumber(n)} B`;
  if (n < 1024 * 1024) return `${formatNumber(n / 1024, 1)} KB`;
  return `${formatNumber(n / (1024 * 1024), 1)} MB`;
}
