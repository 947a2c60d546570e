export * from './account.js';
export * from './common.js';
export * from './constants.js';
export * from './format.js';
export * from './messages.js';
