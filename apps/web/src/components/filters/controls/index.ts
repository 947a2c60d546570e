import type { ComponentType } from 'react';
import type { FilterField, FilterPanelState } from '../use-filter-panel.js';
import {
  CurrencyControl,
  OwnBrandsControl,
  PriceIndexControl,
  PriceModeControl,
  PriceTypeControl,
} from './ChoiceControls.js';
import {
  BrandsControl,
  CategoriesControl,
  ClassificationsControl,
  SellersControl,
} from './OptionControls.js';
import { DatesControl, PriceRangeControl } from './RangeControls.js';
import { MetaSearchControl, SkusControl } from './TextControls.js';

/**
 * The control of each filter field, in the panel's order (a field added to the Filters needs one here:
 * the record is complete by type).
 */
export const FILTER_CONTROLS: Record<FilterField, ComponentType<{ panel: FilterPanelState }>> = {
  classificationsIds: ClassificationsControl,
  categories: CategoriesControl,
  brands: BrandsControl,
  metaSearch: MetaSearchControl,
  sellersIds: SellersControl,
  SKUs: SkusControl,
  price_type: PriceTypeControl,
  mpi_range: PriceIndexControl,
  currency: CurrencyControl,
  priceMode: PriceModeControl,
  dates: DatesControl,
  priceRange: PriceRangeControl,
  ownBrands: OwnBrandsControl,
};
