export * from './DataTable.js';
export * from './KpiCard.js';
export * from './PriceCell.js';
export * from './PriceFreshness.js';
export * from './PriceTypeChip.js';
export * from './RankingIcon.js';
export * from './ranking.js';
export * from './SplitBar.js';
