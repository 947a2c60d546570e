import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import {
  APP_VERSION,
  type AppConfig,
  appConfig,
  categoryNode,
  classificationNode,
  DEFAULT_BRAND_COMPARATOR_SELLERS,
  DEFAULT_IMAGE_VERIFICATION_SELLERS,
  licenseBrand,
  licenseCurrency,
  licensePivot,
  licenseRoleModule,
  licenseSeller,
  type ModuleCode,
  sellersByCountry,
} from '@vigia/domain';
import { z } from 'zod';
import { apiGet, apiPost } from './api-client.js';
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
      queryFn: () =>
        apiGet('/v1/licenses/currencies/me', undefined, { ...silent, schema: z.array(licenseCurrency) }),
      staleTime: NEVER,
    }),
  pivots: () =>
    queryOptions({
      queryKey: licenseKeys.pivots(),
      queryFn: () =>
        apiGet('/v1/licenses/pivots/me', undefined, { ...silent, schema: z.array(licensePivot) }),
      staleTime: NEVER,
    }),
  roleModules: () =>
    queryOptions({
      queryKey: licenseKeys.roleModules(),
      queryFn: () =>
        apiGet('/v1/licenses/role-modules/me', undefined, { ...silent, schema: z.array(licenseRoleModule) }),
      staleTime: NEVER,
    }),
  sellers: () =>
    queryOptions({
      queryKey: licenseKeys.sellers(),
      queryFn: async () => {
        const sellers = await apiGet('/v1/licenses/sellers/me', undefined, {
          ...silent,
          schema: z.array(licenseSeller),
        });
        localStore().set(STORAGE_KEYS.sellers, sellers);
        return sellers;
      },
      staleTime: NEVER,
    }),
  sellersByCountries: () =>
    queryOptions({
      queryKey: licenseKeys.sellersByCountries(),
      queryFn: () =>
        apiGet('/v1/licenses/sellers-by-countries/me', undefined, {
          ...silent,
          schema: z.array(sellersByCountry),
        }),
      staleTime: NEVER,
    }),
  /** Brands sold by the given sellers within the license (POST /v1/licenses/brands/me). */
  brands: (sellers: readonly number[]) =>
    queryOptions({
      queryKey: licenseKeys.brands(sellers),
      queryFn: async () => {
        const brands = await apiPost(
          '/v1/licenses/brands/me',
          { sellers },
          { ...silent, schema: z.array(licenseBrand) },
        );
        localStore().set(STORAGE_KEYS.brands, brands);
        return brands;
      },
      staleTime: 10 * 60_000,
    }),
  classifications: () =>
    queryOptions({
      queryKey: licenseKeys.classifications(),
      queryFn: () =>
        apiGet('/v1/licenses/classifications/me', undefined, {
          ...silent,
          schema: z.array(classificationNode),
        }),
      staleTime: NEVER,
    }),
  classificationTree: () =>
    queryOptions({
      queryKey: licenseKeys.classificationTree(),
      queryFn: () =>
        apiGet('/v1/v2_classification', undefined, { ...silent, schema: z.array(classificationNode) }),
      staleTime: NEVER,
    }),
  categoryTree: () =>
    queryOptions({
      queryKey: licenseKeys.categoryTree(),
      queryFn: () => apiGet('/v1/v2_category_tree', undefined, { ...silent, schema: z.array(categoryNode) }),
      staleTime: NEVER,
    }),
  /** Home-card configuration; the seed's values when the server does not answer. */
  appConfig: () =>
    queryOptions({
      queryKey: licenseKeys.appConfig(),
      queryFn: async (): Promise<AppConfig> => {
        try {
          return await apiGet('/v1/app-config', undefined, { ...silent, schema: appConfig });
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

/** The license lists the shell needs before showing /app (loaded in this order by the dependencies loader). */
export const CORE_LICENSE_QUERIES: CoreLicenseQuery[] = [
  core('Monedas', licenseQueries.currencies),
  core('Pivotes', licenseQueries.pivots),
  core('Módulos', licenseQueries.roleModules),
  core('eCommerce', licenseQueries.sellers),
  core('eCommerce por país', licenseQueries.sellersByCountries),
  core('Configuración', licenseQueries.appConfig),
];

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
