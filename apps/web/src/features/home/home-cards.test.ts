import {
  DEFAULT_BRAND_COMPARATOR_SELLERS,
  DEFAULT_IMAGE_VERIFICATION_SELLERS,
  MODULE_CODES,
} from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { type NavEntry, visibleMenu } from '../../components/shell/nav-model.js';
import { visibleHomeCards } from './home-cards.js';

const config = {
  brandComparatorSellers: DEFAULT_BRAND_COMPARATOR_SELLERS,
  imageVerificationSellers: DEFAULT_IMAGE_VERIFICATION_SELLERS,
};
const names = (cards: { name: string }[]) => cards.map((c) => c.name);
const enabled = (cards: { name: string; enabled: boolean }[]) =>
  cards.filter((c) => c.enabled).map((c) => c.name);

describe('visibleHomeCards', () => {
  it('pivot 116 with every module: all cards but the brand comparator, all enabled', () => {
    const cards = visibleHomeCards(MODULE_CODES, 116, config);
    expect(names(cards)).toEqual([
      'dpm-by-brand',
      'dpm-by-ecommerce',
      'dpm-by-classification',
      'navigation-by-ecommerce',
      'reports',
      'promotions-by-day',
      'promotions-by-duration',
      'promotions-by-type',
      'promotions-by-range',
      'promotions-by-scatter-plot',
      'assortment-by-stock',
      'assortment-by-ecommerce',
      'assortment-by-brand',
      'image-verification',
    ]);
    expect(cards.every((c) => c.enabled)).toBe(true);
    expect(cards.every((c) => c.title.length > 0)).toBe(true);
  });

  it('pivot 5: the brand comparator shows, enabled by the dpm module; image verification hidden', () => {
    const cards = visibleHomeCards(MODULE_CODES, 5, config);
    const comparator = cards.find((c) => c.name === 'brand-price-comparator');
    expect(comparator?.enabled).toBe(true);
    const withoutDpm = visibleHomeCards(['assortment'], 5, config);
    expect(withoutDpm.find((c) => c.name === 'brand-price-comparator')?.enabled).toBe(false);
    expect(names(cards)).not.toContain('image-verification');
  });

  it('cards are enabled per role module', () => {
    const cards = visibleHomeCards(['dpm', 'reports'], 125, config);
    expect(enabled(cards)).toEqual(['dpm-by-brand', 'dpm-by-ecommerce', 'dpm-by-classification', 'reports']);
    // Disabled ones are still shown (labelled 'En construcción').
    expect(names(cards)).toContain('promotions-by-day');
    expect(cards.find((c) => c.name === 'image-verification')?.enabled).toBe(false);
  });

  it('follows the server configuration and hides conditional cards without a pivot', () => {
    const custom = { brandComparatorSellers: [116], imageVerificationSellers: [] };
    const cards = visibleHomeCards(MODULE_CODES, 116, custom);
    expect(names(cards)).toContain('brand-price-comparator');
    expect(names(cards)).not.toContain('image-verification');
    const none = visibleHomeCards(MODULE_CODES, null, config);
    expect(names(none)).not.toContain('brand-price-comparator');
    expect(names(none)).not.toContain('image-verification');
  });

  it('the menu shows a pivot-gated screen exactly when its card shows (Imágenes, the brand comparator)', () => {
    const links = (menu: NavEntry[]): string[] =>
      menu.flatMap((e) => (e.kind === 'link' ? [e.to] : e.items.map((i) => i.to)));
    const configs = [config, { brandComparatorSellers: [116], imageVerificationSellers: [5, 131] }];
    for (const appConfig of configs)
      for (const pivotId of [null, 5, 116, 125, 131]) {
        const cards = names(visibleHomeCards(MODULE_CODES, pivotId, appConfig));
        const menu = links(visibleMenu(MODULE_CODES, { pivotId, appConfig }));
        for (const screen of ['image-verification', 'brand-price-comparator'])
          expect(menu.includes(`/app/${screen}`), `${screen} for pivot ${pivotId}`).toBe(
            cards.includes(screen),
          );
      }
    // the seed's rule: Imágenes for 116 and 125 only
    const menuOf = (pivotId: number) =>
      visibleMenu(MODULE_CODES, { pivotId, appConfig: config }).map((e) => e.label);
    expect(menuOf(116)).toContain('Imágenes');
    expect(menuOf(125)).toContain('Imágenes');
    expect(menuOf(5)).not.toContain('Imágenes');
  });
});
