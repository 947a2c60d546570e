import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import NotFoundPage, { NOT_FOUND_TITLE } from '../components/page/NotFoundPage.js';
import { AppShell, useDocumentTitle } from '../components/shell/AppShell.js';
import { ProductMark } from '../components/shell/ProductMark.js';
import { setNavigator } from '../lib/navigation.js';
import { PATHS } from '../lib/paths.js';
import { logout } from '../lib/session.js';
import { appLoader, authLoader, publicLoader } from './guard.js';
import { LazyScreen, ModuleGate, preloadScreen } from './lazy-screen.js';
import {
  appRoutes,
  dependenciesLoaderRoute,
  publicRoutes,
  type RouteHandle,
  type ScreenRoute,
} from './routes.js';

/** Inicio: where a login lands. */
const homeRoute = appRoutes.find((r) => r.path === '') as ScreenRoute;

function handleOf(r: ScreenRoute): RouteHandle {
  return { name: r.name, title: r.title, module: r.module };
}

/** Shown while the first route's loader runs (license data on a direct visit to /app/...). */
function StartupFallback() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 3 }}>
        <ProductMark size={56} />
        <CircularProgress size={28} aria-label="Cargando…" />
      </Box>
    </Box>
  );
}

/** Pages outside the /app frame (login, recovery, loader) also carry their title. */
function BareLayout() {
  useDocumentTitle();
  return <Outlet />;
}

export const routeObjects: RouteObject[] = [
  {
    element: <BareLayout />,
    hydrateFallbackElement: <StartupFallback />,
    children: [
      ...publicRoutes.map<RouteObject>((r) => ({
        path: r.path,
        handle: handleOf(r),
        // Visiting /login first logs the user out (seed 000 §2).
        loader:
          r.path === PATHS.login
            ? (args) => {
                logout();
                // the pages a login opens next, loaded while the user types (drawn at once then)
                preloadScreen(dependenciesLoaderRoute.lazy);
                preloadScreen(homeRoute.lazy);
                return publicLoader(args);
              }
            : publicLoader,
        element: <LazyScreen key={r.name} load={r.lazy} />,
      })),
      {
        path: dependenciesLoaderRoute.path,
        handle: handleOf(dependenciesLoaderRoute),
        loader: (args) => {
          preloadScreen(dependenciesLoaderRoute.lazy);
          preloadScreen(homeRoute.lazy);
          return authLoader(args);
        },
        element: <LazyScreen key={dependenciesLoaderRoute.name} load={dependenciesLoaderRoute.lazy} />,
      },
    ],
  },
  {
    path: '/app',
    loader: appLoader,
    // Each screen reloads its own data; the layout's license data does not depend on the child route.
    shouldRevalidate: () => false,
    hydrateFallbackElement: <StartupFallback />,
    element: <AppShell />,
    children: [
      ...appRoutes.map<RouteObject>((r) => ({
        ...(r.path === '' ? { index: true } : { path: r.path }),
        handle: handleOf(r),
        // Runs alongside the layout's loader: fetch the screen's code (LazyScreen's import then finds it
        // loaded) and start its first data loads, instead of waiting for the layout to render.
        loader: ({ params }) => {
          preloadScreen(r.lazy); // a failure is LazyScreen's to report, with its retry
          r.prefetch?.(params);
          return null;
        },
        element: (
          <ModuleGate key={r.name} route={r}>
            <LazyScreen load={r.lazy} />
          </ModuleGate>
        ),
      })),
      // Any other path under /app (a mistyped or truncated link): the app's not-found view, in the frame.
      {
        path: '*',
        handle: { name: 'NotFound', title: NOT_FOUND_TITLE, module: null } satisfies RouteHandle,
        element: <NotFoundPage />,
      },
    ],
  },
  { path: '*', element: <Navigate to={PATHS.login} replace /> },
];

export function createAppRouter() {
  const router = createBrowserRouter(routeObjects);
  setNavigator((to, opts) => {
    void router.navigate(to, opts);
  });
  return router;
}
