import { MESSAGES, TAGLINE } from '@vigia/domain';

// Spanish UI texts of the shell, login, profile and home. The seed's messages come verbatim from
// @vigia/domain (MESSAGES, STATUS_MESSAGES); this catalogue adds the labels the seeds leave to us.

export const T = {
  product: 'Vigía',
  tagline: TAGLINE,
  version: (v: string) => `Versión ${v}`,

  // Login
  loginTitle: 'Inicia sesión',
  loginSubtitle: 'Ingresa con el correo y la contraseña de tu cuenta.',
  email: 'Correo electrónico',
  password: 'Contraseña',
  showPassword: 'Mostrar contraseña',
  hidePassword: 'Ocultar contraseña',
  forgotPassword: '¿Olvidaste tu contraseña?',
  signIn: 'Ingresar',
  brandHighlights: [
    'Tu catálogo frente a cada competidor, todos los días.',
    'Promociones, surtido e imágenes en un solo lugar.',
    'Alertas que explican qué cambió y por qué.',
  ],

  // Recovery and reset
  recoverTitle: 'Recupera tu contraseña',
  recoverSubtitle: 'Te enviaremos un correo con las instrucciones para restablecerla.',
  recover: 'Recuperar',
  backToLogin: 'Volver a iniciar sesión',
  resetTitle: 'Nueva contraseña',
  resetSubtitle: 'Elige una contraseña de al menos 8 caracteres.',
  newPassword: 'Contraseña nueva',
  confirmation: 'Confirmación',
  save: 'Guardar',
  accept: 'Aceptar',
  warning: 'Atención',
  error: 'Error',

  // Dependencies loader
  loadingTitle: 'Preparando tu información',
  loadingSubtitle: 'Cargando los datos de tu licencia…',

  // Shell
  menu: 'Menú',
  collapseMenu: 'Contraer menú',
  expandMenu: 'Expandir menú',
  pivot: 'Pivote',
  currency: 'Moneda',
  competitors: 'Competidores',
  competitorsCount: (n: number, total: number) =>
    n === total ? `Todos (${n})` : n === 0 ? 'Ninguno' : `${n} de ${total}`,
  analysisSettings: 'Ajustes de análisis',
  searchSeller: 'Buscar eCommerce',
  selectAll: 'Todos',
  selectNone: 'Ninguno',
  apply: 'Aplicar',
  cancel: 'Cancelar',
  notifications: 'Notificaciones',
  notificationsCount: (n: number) => (n === 1 ? '1 notificación nueva' : `${n} notificaciones nuevas`),
  userMenu: 'Menú de usuario',
  profile: MESSAGES.profileTitle,
  logout: 'Cerrar sesión',
  retry: 'Reintentar',
  loading: 'Cargando…',
  comingSoon: 'Próximamente',
  comingSoonBody: 'Estamos terminando esta vista. Muy pronto podrás usarla desde aquí.',
  backHome: 'Volver al inicio',
  notAllowedTitle: 'Funcionalidad no permitida.',
  notAllowedBody: 'Tu licencia no incluye este módulo. Si lo necesitas, contacta a tu ejecutivo.',
  screenError: 'Esta vista tuvo un problema al mostrarse.',

  // Profile
  settingsSection: 'Configuración',
  passwordSection: 'Cambio de contraseña',
  name: 'Nombre',
  timezone: 'Zona horaria',
  defaultPivot: 'Pivote por defecto',
  defaultCurrency: 'Moneda por defecto',
  none: 'Ninguno',

  // Home
  greeting: (name: string) => (name ? `Hola, ${name.split(' ')[0]}` : 'Hola'),
  homeSubtitle: 'Elige una vista para comenzar tu análisis.',
  open: 'Abrir',
  viewDashboard: 'Ver dashboard',
} as const;
