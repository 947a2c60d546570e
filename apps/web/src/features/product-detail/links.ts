import { appPath } from '../../lib/paths.js';

// Addresses of the product detail screens, so every link to them is built the same way.

/** product/{id}: Vigía listing id. */
export function productPath(id: number | string): string {
  return appPath(`product/${encodeURIComponent(String(id))}`);
}

/** qmi-detail: one listing, by the seller's own product id and the seller. */
export function qmiPath(productId: string, sellerId: number): string {
  return `${appPath('qmi-detail')}?${new URLSearchParams({ productId, sellerId: String(sellerId) })}`;
}

/** qmp-detail: the match (ranking) of a product, by Vigía listing id. */
export function qmpPath(id: number): string {
  return `${appPath('qmp-detail')}?${new URLSearchParams({ id: String(id) })}`;
}
