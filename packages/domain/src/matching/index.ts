export * from './gtin.js';
export * from './quality.js';
export * from './score.js';
export * from './title.js';
export * from './trigrams.js';
export * from './units.js';
