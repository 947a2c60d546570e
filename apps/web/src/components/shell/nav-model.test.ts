import { MODULE_CODES } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { isActiveLink, type NavEntry, visibleMenu } from './nav-model.js';

const labels = (menu: NavEntry[]) => menu.map((e) => e.label);
const group = (menu: NavEntry[], label: string) => {
  const g = menu.find((e) => e.label === label);
  return g?.kind === 'group' ? g.items.map((i) => i.to) : undefined;
};

const appConfig = { brandComparatorSellers: [5], imageVerificationSellers: [116, 125] };

describe('visibleMenu', () => {
  it('every module, pivot 116: all groups in the seed order', () => {
    expect(labels(visibleMenu(MODULE_CODES, { pivotId: 116, appConfig }))).toEqual([
      'Inicio',
      'Dashboard',
      'Precios',
      'Promociones',
      'Surtido',
      'Imágenes',
      'Reportes',
      'Lista de productos',
      'Notificaciones',
    ]);
  });

  it('no module: only the ungated entries', () => {
    expect(labels(visibleMenu([]))).toEqual(['Inicio', 'Dashboard', 'Lista de productos', 'Notificaciones']);
  });

  it('Precios shows dpm items for dpm and navigation items for ecommerce_navigation', () => {
    expect(group(visibleMenu(['dpm']), 'Precios')).toEqual([
      '/app/dpm-by-brand',
      '/app/dpm-by-classification',
      '/app/dpm-by-ecommerce',
      '/app/matches',
    ]);
    expect(group(visibleMenu(['ecommerce_navigation']), 'Precios')).toEqual([
      '/app/navigation-by-ecommerce',
      '/app/navigation-by-ecommerce?view=comparator',
    ]);
  });

  it('the brand comparator sits in Precios, only for the pivots of BRAND_COMPARATOR_SELLERS', () => {
    expect(group(visibleMenu(['dpm'], { pivotId: 5, appConfig }), 'Precios')).toEqual([
      '/app/dpm-by-brand',
      '/app/dpm-by-classification',
      '/app/dpm-by-ecommerce',
      '/app/brand-price-comparator',
      '/app/matches',
    ]);
    expect(group(visibleMenu(['dpm'], { pivotId: 116, appConfig }), 'Precios')).not.toContain(
      '/app/brand-price-comparator',
    );
    expect(group(visibleMenu(['dpm'], { pivotId: null, appConfig }), 'Precios')).toHaveLength(4);
    // the card's module too: pivot 5 without dpm has no comparator
    expect(group(visibleMenu(['ecommerce_navigation'], { pivotId: 5, appConfig }), 'Precios')).toHaveLength(
      2,
    );
  });

  it('each other group follows its module', () => {
    expect(group(visibleMenu(['promotions']), 'Promociones')).toHaveLength(5);
    expect(group(visibleMenu(['assortment']), 'Surtido')).toHaveLength(3);
    // Groups of a single item are plain links named after the group.
    const images = visibleMenu(['image_verification'], { pivotId: 125, appConfig });
    expect(images.find((e) => e.label === 'Imágenes')).toMatchObject({
      kind: 'link',
      to: '/app/image-verification',
    });
    expect(visibleMenu(['reports']).find((e) => e.label === 'Reportes')).toMatchObject({
      kind: 'link',
      to: '/app/reports',
    });
    expect(labels(visibleMenu(['reports']))).not.toContain('Promociones');
  });

  it('Imágenes only for the pivots of IMAGE_VERIFICATION_SELLERS, with its module', () => {
    const has = (modules: Parameters<typeof visibleMenu>[0], pivotId: number | null) =>
      labels(visibleMenu(modules, { pivotId, appConfig })).includes('Imágenes');
    expect(has(['image_verification'], 116)).toBe(true);
    expect(has(['image_verification'], 125)).toBe(true);
    expect(has(['image_verification'], 5)).toBe(false);
    expect(has(['image_verification'], null)).toBe(false);
    expect(labels(visibleMenu(['image_verification']))).not.toContain('Imágenes');
    expect(has(['dpm'], 116)).toBe(false);
  });
});

describe('isActiveLink', () => {
  const menu = visibleMenu(MODULE_CODES);
  const prices = menu.find((e) => e.kind === 'group' && e.id === 'prices');
  const items = prices?.kind === 'group' ? prices.items : [];
  const nav = items.find((i) => i.to === '/app/navigation-by-ecommerce');
  const comparator = items.find((i) => i.to.includes('comparator'));

  it('matches the path, ignoring a trailing slash', () => {
    const home = menu[0];
    if (home.kind !== 'link') throw new Error('Inicio is a link');
    expect(isActiveLink(home, '/app/', '')).toBe(true);
    expect(isActiveLink(home, '/app', '')).toBe(true);
    expect(isActiveLink(home, '/app/dashboard', '')).toBe(false);
  });

  it('tells the comparator view from the navigation screen', () => {
    if (!nav || !comparator) throw new Error('missing items');
    expect(isActiveLink(nav, '/app/navigation-by-ecommerce', '?page=2')).toBe(true);
    expect(isActiveLink(comparator, '/app/navigation-by-ecommerce', '?page=2')).toBe(false);
    expect(isActiveLink(comparator, '/app/navigation-by-ecommerce', '?view=comparator')).toBe(true);
    expect(isActiveLink(nav, '/app/navigation-by-ecommerce', '?view=comparator')).toBe(false);
  });

  it('Notificaciones is also current on its subscriptions page', () => {
    const n = menu.find((e) => e.label === 'Notificaciones');
    if (n?.kind !== 'link') throw new Error('Notificaciones is a link');
    expect(isActiveLink(n, '/app/notifications-subscriptions', '')).toBe(true);
  });
});
