// Spanish texts from the seeds, verbatim (including their spelling). Do not "fix" them.

export const STATUS_MESSAGES: Record<number, string> = {
  400: 'Por favor verifica tus credenciales de acceso.',
  401: 'No tienes permitido el acceso a esta funcionalidad, intenta iniciar sesión.',
  403: 'Funcionalidad no permitida.',
  404: 'No se ha encontrado el recurso solicitado.',
  500: 'Ha ocurrido un error durante la petición, intenta nuevamente.',
  504: 'Se alcanzado el tiempo máximo de espera sin recibir una respuesta.',
};

/** Message for an HTTP status; other statuses show the original message (seed 000 §8). */
export function statusMessage(status: number, original?: string): string {
  return STATUS_MESSAGES[status] ?? original ?? STATUS_MESSAGES[500];
}

export const MESSAGES = {
  slowConnection:
    'Lo sientimos, tu internet anda un poco lento, verifica la conexión y vuelte a intentar por favor.',
  invalidEmail: 'Correo no válido',
  invalidPassword: 'Contraseña no válida',
  wrongCredentials: 'Usuario o contraseña incorrecta',
  tryAgain: 'Intenta nuevamente',
  passwordTooShort: 'La contraseña debe tener al menos 8 caracteres',
  passwordsDoNotMatch: 'Las contraseñas no coinciden',
  missingInformation: 'Falta información',
  resetNotPossibleRetry: 'No ha sido posible reestablecer su contraseña, intente nuevamente',
  completeAllFields: 'Complete todos los campos',
  resetFailed: 'No ha sido posible reestablecer su contraseña, por favor intente nuevamente',
  recoverySentTitle: 'Correo enviado',
  recoverySentBody: 'Revise su bandeja de entrada y siga las instrucciones para reestablecer su contraseña',
  resetDoneTitle: 'Contraseña actualizada',
  resetDoneBody: 'Cambios guardados con éxito',
  profileLoadFailed: 'No ha sido posible obtener su perfil',
  profileSaveFailed: 'No ha sido posible actualizar su perfil',
  passwordChangeFailed: 'No ha sido posible actualizar su contraseña',
  profileSaved: 'Perfil actualizado exitosamente',
  passwordChanged: 'Contraseña actualizada exitosamente',
  underConstruction: 'En construcción',
  exporterCannotConnect: 'Cannot connect to server.',
  dashboardFailed: 'Ocurrió un error obteniendo los indices',
  productListFailed: 'Ocurrió un error obteniendo el listado de productos',
  productInfoFailed: 'Ocurrió un error obteniendo la información del producto',
  priceHistoryFailed: 'Ocurrió un error obteniendo los precios históricos del producto',
  downloadHistoryFailed:
    'Ocurrió un error obteniendo la información para descargar los precios históricos del producto',
  available: 'Disponible',
  unavailableStockOut: 'No Disponible',
  unavailableNotSeen: 'No disponible',
  productDetailTitle: 'Detalle de producto',
  productListTitle: 'Lista de productos',
  profileTitle: 'Perfil de usuario',
} as const;
