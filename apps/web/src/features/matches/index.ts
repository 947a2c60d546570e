// Public face of Coincidencias: the product page shows a product's matches with this.
export { ProductMatches } from './components/ProductMatches.js';
