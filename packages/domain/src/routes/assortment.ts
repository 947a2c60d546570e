import { z } from 'zod';
import {
  assortmentBody,
  assortmentProductsBody,
  assortmentProductsResponse,
  assortmentResult,
  assortmentStockProductsBody,
  brandComparatorQuery,
  brandComparatorResponse,
} from '../assortment.js';
import { defineRoute } from './define.js';

// Assortment (seed 001 §7 "Assortment"; formulas in docs/metrics.md "Assortment"): module assortment,
// the filters in the body. The XLSX variants answer the same rows as files. The brand price comparator
// (issue 14) is a DPM view: module dpm, the DPM filters in the querystring.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const file = z.string().max(50_000_000);

const table = <const K extends string>(kind: K, name: string, summary: string) =>
  defineRoute({
    id: `assortment.${name}`,
    method: 'POST',
    path: `/v1/assortment/${kind}`,
    module: 'assortment',
    auth: true,
    body: assortmentBody,
    response: assortmentResult,
    summary,
  });

const tableXlsx = <const K extends string>(kind: K, name: string) =>
  defineRoute({
    id: `assortment.${name}Xlsx`,
    method: 'POST',
    path: `/v1/assortment/${kind}.xlsx`,
    module: 'assortment',
    auth: true,
    body: assortmentBody,
    response: file,
    produces: XLSX,
    summary: `Descarga XLSX de /v1/assortment/${kind}`,
  });

const products = <const K extends string>(kind: K, name: string, summary: string) =>
  defineRoute({
    id: `assortment.${name}Products`,
    method: 'POST',
    path: `/v1/assortment/${kind}/products`,
    module: 'assortment',
    auth: true,
    body: assortmentProductsBody,
    response: assortmentProductsResponse,
    summary,
  });

const productsXlsx = <const K extends string>(kind: K, name: string) =>
  defineRoute({
    id: `assortment.${name}ProductsXlsx`,
    method: 'POST',
    path: `/v1/assortment/${kind}/products.xlsx`,
    module: 'assortment',
    auth: true,
    body: assortmentProductsBody,
    response: file,
    produces: XLSX,
    summary: `Descarga XLSX de /v1/assortment/${kind}/products (hasta 10.000 filas)`,
  });

export const assortmentRoutes = {
  brand: table('brand', 'brand', 'Surtido por marca (primera fila «Todas»)'),
  ecommerce: table('ecommerce', 'ecommerce', 'Surtido por eCommerce (primera fila «Todos»)'),
  stock: table('stock', 'stock', 'Cambio de disponibilidad por eCommerce (primera fila «Todos»)'),
  brandProducts: products('brand', 'brand', 'Productos de una marca (brand = nombre; sin brand: todas)'),
  ecommerceProducts: products(
    'ecommerce',
    'ecommerce',
    'Productos de un eCommerce (seller_id; sin seller_id: todos)',
  ),
  stockProducts: defineRoute({
    id: 'assortment.stockProducts',
    method: 'POST',
    path: '/v1/assortment/stock/products',
    module: 'assortment',
    auth: true,
    body: assortmentStockProductsBody,
    response: assortmentProductsResponse,
    summary: 'Productos que salieron de stock, volvieron o siguen sin stock (stock), con fechas',
  }),
  brandXlsx: tableXlsx('brand', 'brand'),
  ecommerceXlsx: tableXlsx('ecommerce', 'ecommerce'),
  stockXlsx: tableXlsx('stock', 'stock'),
  brandProductsXlsx: productsXlsx('brand', 'brand'),
  ecommerceProductsXlsx: productsXlsx('ecommerce', 'ecommerce'),
  stockProductsXlsx: defineRoute({
    id: 'assortment.stockProductsXlsx',
    method: 'POST',
    path: '/v1/assortment/stock/products.xlsx',
    module: 'assortment',
    auth: true,
    body: assortmentStockProductsBody,
    response: file,
    produces: XLSX,
    summary: 'Descarga XLSX de /v1/assortment/stock/products (hasta 10.000 filas)',
  }),
};

export const brandComparatorRoutes = {
  comparator: defineRoute({
    id: 'brandComparator.comparator',
    method: 'GET',
    path: '/v2/navigation/dpm/brand-comparator',
    module: 'dpm',
    auth: true,
    query: brandComparatorQuery,
    response: brandComparatorResponse,
    summary:
      'Comparador de precios de marca: índice de cada marca frente a cada competidor, con su tendencia',
  }),
};
