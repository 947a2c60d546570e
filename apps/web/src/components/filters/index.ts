export * from './FilterPanel.js';
export * from './filter-url.js';
export * from './labels.js';
export * from './OptionsField.js';
export * from './PriceRangeField.js';
export * from './tree-options.js';
export * from './use-filter-search.js';
