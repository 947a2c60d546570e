// The product-detail feature's public face: what other features and the app may use. Everything else in
// this folder is internal to the feature.
export { QuickFind, type QuickFindProps } from './components/QuickFind.js';
export { productPath, qmiPath, qmpPath } from './links.js';
