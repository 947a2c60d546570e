import {
  DEFAULT_BRAND_COMPARATOR_SELLERS,
  DEFAULT_IMAGE_VERIFICATION_SELLERS,
  MODULE_CODES,
} from '@vigia/domain';
import { describe, expect, it } from 'vitest';
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
});
