import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import {
  APP_VERSION,
  type AppConfig,
  DEFAULT_BRAND_COMPARATOR_SELLERS,
  DEFAULT_IMAGE_VERIFICATION_SELLERS,
  licensesRoutes as defs,
  type licenseBrand,
  type licenseCurrency,
  type licensePivot,
  type licenseSeller,
  type ModuleCode,
  type RouteDef,
  type RouteInput,
  type sellersByCountry,
} from '@vigia/domain';
import type { z } from 'zod';
import { callRoute } from './api-client.js';
import { localStore, STORAGE_KEYS } from './storage.js';

// License data (seed 000 §3, §7): what the user's organisation may see. Loaded by /dependencies-loader
// (and by the /app layout when the page is opened directly), cached for the session. Loading errors are
// only logged (seed 000 §8): the screens then work with what they have.

export type LicenseCurrency = z.infer<typeof licenseCurrency>;
export type LicensePivot = z.infer<typeof licensePivot>;
export type LicenseSeller = z.infer<typeof licenseSeller>;
export type SellersByCountry = z.infer<typeof sellersByCountry>;
export type LicenseBrand = z.infer<typeof licenseBrand>;

const NEVER = Number.POSITIVE_INFINITY;
const silent = { notify: false } as const;
/** One license list (a GET without input). */
const list = <D extends RouteDef>(def: D) => callRoute(def, {} as RouteInput<D>, silent);

/** Query keys of license data; every key starts with 'license' so a logout clears them all. */
export const licenseKeys = {
  all: ['license'] as const,
  currencies: () => ['license', 'currencies'] as const,
  pivots: () => ['license', 'pivots'] as const,
  roleModules: () => ['license', 'role-modules'] as const,
  sellers: () => ['license', 'sellers'] as const,
  sellersByCountries: () => ['license', 'sellers-by-countries'] as const,
  brands: (sellers: readonly number[]) => ['license', 'brands', [...sellers].sort((a, b) => a - b)] as const,
  classifications: () => ['license', 'classifications'] as const,
  classificationTree: () => ['license', 'v2_classification'] as const,
  categoryTree: () => ['license', 'v2_category_tree'] as const,
  appConfig: () => ['app-config'] as const,
};

export const licenseQueries = {
  currencies: () =>
    queryOptions({
      queryKey: licenseKeys.currencies(),
      queryFn: () => list(defs.currencies),
      staleTime: NEVER,
    }),
  pivots: () =>
    queryOptions({
      queryKey: licenseKeys.pivots(),
      queryFn: () => list(defs.pivots),
      staleTime: NEVER,
    }),
  roleModules: () =>
    queryOptions({
      queryKey: licenseKeys.roleModules(),
      queryFn: () => list(defs.roleModules),
      staleTime: NEVER,
    }),
  sellers: () =>
    queryOptions({
      queryKey: licenseKeys.sellers(),
      queryFn: async () => {
        const sellers = await list(defs.sellers);
        localStore().set(STORAGE_KEYS.sellers, sellers);
        return sellers;
      },
      staleTime: NEVER,
    }),
  sellersByCountries: () =>
    queryOptions({
      queryKey: licenseKeys.sellersByCountries(),
      queryFn: () => list(defs.sellersByCountries),
      staleTime: NEVER,
    }),
  /** Brands sold by the given sellers within the license (POST /v1/licenses/brands/me). */
  brands: (sellers: readonly number[]) =>
    queryOptions({
      queryKey: licenseKeys.brands(sellers),
      queryFn: async () => {
        const brands = await callRoute(defs.brands, { body: { sellers: [...sellers] } }, silent);
        localStore().set(STORAGE_KEYS.brands, brands);
        return brands;
      },
      staleTime: 10 * 60_000,
    }),
  classifications: () =>
    queryOptions({
      queryKey: licenseKeys.classifications(),
      queryFn: () => list(defs.classifications),
      staleTime: NEVER,
    }),
  classificationTree: () =>
    queryOptions({
      queryKey: licenseKeys.classificationTree(),
      queryFn: () => list(defs.classificationTree),
      staleTime: NEVER,
    }),
  categoryTree: () =>
    queryOptions({
      queryKey: licenseKeys.categoryTree(),
      queryFn: () => list(defs.categoryTree),
      staleTime: NEVER,
    }),
  /** Home-card configuration; the seed's values when the server does not answer. */
  appConfig: () =>
    queryOptions({
      queryKey: licenseKeys.appConfig(),
      queryFn: async (): Promise<AppConfig> => {
        try {
          return await list(defs.appConfig);
        } catch (error) {
          console.warn('app-config no disponible; se usan los valores por defecto', error);
          return DEFAULT_APP_CONFIG;
        }
      },
      staleTime: NEVER,
    }),
};

export const DEFAULT_APP_CONFIG: AppConfig = {
  version: APP_VERSION,
  brandComparatorSellers: DEFAULT_BRAND_COMPARATOR_SELLERS,
  imageVerificationSellers: DEFAULT_IMAGE_VERIFICATION_SELLERS,
};

/** One license list the shell needs before showing /app. */
export interface CoreLicenseQuery {
  label: string;
  /** From the cache when present (the /app loader). */
  ensure: (client: QueryClient) => Promise<unknown>;
  /** Always asks the server (the dependencies loader, right after login). */
  fetch: (client: QueryClient) => Promise<unknown>;
}

function core<O extends { queryKey: readonly unknown[] }>(label: string, make: () => O): CoreLicenseQuery {
  // Type-erased here: each list's own types stay on licenseQueries for the components.
  const opts = make as unknown as () => Parameters<QueryClient['fetchQuery']>[0];
  return { label, ensure: (c) => c.ensureQueryData(opts()), fetch: (c) => c.fetchQuery(opts()) };
}

const CURRENCIES = core('Monedas', licenseQueries.currencies);
const PIVOTS = core('Pivotes', licenseQueries.pivots);
const SELLERS = core('eCommerce', licenseQueries.sellers);

/** The license lists the shell needs before showing /app (asked at once by the dependencies loader). */
export const CORE_LICENSE_QUERIES: CoreLicenseQuery[] = [
  CURRENCIES,
  PIVOTS,
  core('Módulos', licenseQueries.roleModules),
  SELLERS,
  core('eCommerce por país', licenseQueries.sellersByCountries),
  core('Configuración', licenseQueries.appConfig),
];

/** The lists the brands request depends on (the user's pivot and competitors are chosen from them). */
export const BRAND_INPUTS: readonly CoreLicenseQuery[] = [CURRENCIES, PIVOTS, SELLERS];

export interface LicenseData {
  currencies: LicenseCurrency[];
  pivots: LicensePivot[];
  modules: ModuleCode[];
  sellers: LicenseSeller[];
  sellersByCountries: SellersByCountry[];
  appConfig: AppConfig;
  /** True once every list has answered (successfully or not). */
  loaded: boolean;
}

/** License data for components (cached; fetched if the cache is empty). */
export function useLicense(): LicenseData {
  const currencies = useQuery(licenseQueries.currencies());
  const pivots = useQuery(licenseQueries.pivots());
  const modules = useQuery(licenseQueries.roleModules());
  const sellers = useQuery(licenseQueries.sellers());
  const byCountry = useQuery(licenseQueries.sellersByCountries());
  const config = useQuery(licenseQueries.appConfig());
  const all = [currencies, pivots, modules, sellers, byCountry, config];
  return {
    currencies: currencies.data ?? [],
    pivots: pivots.data ?? [],
    modules: (modules.data ?? []).map((m) => m.module_code),
    sellers: sellers.data ?? [],
    sellersByCountries: byCountry.data ?? [],
    appConfig: config.data ?? DEFAULT_APP_CONFIG,
    loaded: all.every((q) => !q.isPending),
  };
}

/** True when the license grants the module. */
export function useHasModule(code: ModuleCode): boolean {
  return useLicense().modules.includes(code);
}

/** Brands of the given sellers within the license (for filters). */
export function useLicenseBrands(sellers: readonly number[]) {
  return useQuery({ ...licenseQueries.brands(sellers), enabled: sellers.length > 0 });
}
