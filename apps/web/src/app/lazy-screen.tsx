import BlockRoundedIcon from '@mui/icons-material/BlockRounded';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import WifiOffRoundedIcon from '@mui/icons-material/WifiOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import { CHUNK_LOAD_TIMEOUT_MS, LAZY_SCREEN_TIMEOUT_MS, MESSAGES } from '@vigia/domain';
import {
  Component,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useState,
} from 'react';
import { Link as RouterLink } from 'react-router';
import { StateMessage } from '../components/page/StateMessage.js';
import { licenseQueries } from '../lib/license.js';
import { PATHS } from '../lib/paths.js';
import { T } from '../lib/texts.js';
import type { LazyScreenLoader, ScreenRoute } from './routes.js';

// Every screen is lazy-loaded (seed 000 §2): a spinner while its code arrives; after 30 s without it, or
// when loading fails, the seed's "Lo sientimos…" message with a retry. The chunk import itself gives up
// after 120 s (CHUNK_LOAD_TIMEOUT_MS).

/** A screen's code could not be loaded (network, timeout, deployment changed under the user). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('chunk load failed', { cause });
    this.name = 'ChunkLoadError';
  }
}

/** Rejects with ChunkLoadError when the import fails or takes longer than `ms`. */
export function withChunkTimeout<T>(load: () => Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), ms);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (e) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(e));
      },
    );
  });
}

export function SlowConnection({ onRetry }: { onRetry: () => void }) {
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, md: 6 } }}>
      <StateMessage
        icon={<WifiOffRoundedIcon />}
        title={MESSAGES.slowConnection}
        action={T.retry}
        onAction={onRetry}
      />
    </Box>
  );
}

/** The spinner of a loading screen; becomes the slow-connection message after 30 s. */
export function ScreenLoading({ minHeight = 320 }: { minHeight?: number | string }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), LAZY_SCREEN_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, []);
  if (slow) return <SlowConnection onRetry={() => window.location.reload()} />;
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight }} role="progressbar" aria-label={T.loading}>
      <CircularProgress color="primary" size={40} thickness={4} />
    </Box>
  );
}

class ScreenBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Error en la vista', error, info.componentStack);
  }
  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof ChunkLoadError) return <SlowConnection onRetry={this.props.onRetry} />;
    return (
      <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, md: 6 } }}>
        <StateMessage
          icon={<ErrorOutlineRoundedIcon />}
          title={T.screenError}
          body={MESSAGES.slowConnection}
          action={T.retry}
          onAction={this.props.onRetry}
        />
      </Box>
    );
  }
}

// A screen whose code is already here is drawn at once, without Suspense: React holds back the reveal of
// a suspended boundary's content for up to 300 ms after its fallback appeared (its fallback throttle), so
// a lazy screen that suspended even for the few milliseconds a cached chunk takes to evaluate appeared
// ~300 ms late — after login twice, /dependencies-loader then Inicio (issue 31 item 11: a Chromium trace
// showed the main thread idle, waiting on that timer). The route loaders and the login page preload the
// code (preloadScreen), so by the time a route renders its module is usually known.
const loaded = new Map<LazyScreenLoader, ComponentType>();

/** Starts loading a screen's code and remembers it once loaded; a failure is LazyScreen's to report. */
export function preloadScreen(load: LazyScreenLoader): void {
  if (loaded.has(load)) return;
  load().then(
    (m) => {
      loaded.set(load, m.default);
    },
    () => {},
  );
}

// Lazy components must outlive renders: a component created during a render that suspends is thrown
// away with it, and the retry would create (and wait for) a new one forever. A failed one is forgotten,
// so the next mount (or "Reintentar") imports again.
const lazyCache = new Map<LazyScreenLoader, LazyExoticComponent<ComponentType>>();
function lazyScreen(load: LazyScreenLoader): LazyExoticComponent<ComponentType> {
  let screen = lazyCache.get(load);
  if (!screen) {
    const created = lazy(() =>
      withChunkTimeout(load)
        .then((m) => {
          loaded.set(load, m.default);
          return m;
        })
        .catch((error: unknown) => {
          if (lazyCache.get(load) === created) lazyCache.delete(load);
          throw error;
        }),
    );
    lazyCache.set(load, created);
    screen = created;
  }
  return screen;
}

/** Renders a registry screen: lazy import with timeout, spinner, slow/failed fallback with retry. */
export function LazyScreen({ load }: { load: LazyScreenLoader }) {
  const [attempt, setAttempt] = useState(0);
  const Screen = loaded.get(load) ?? lazyScreen(load);
  const retry = () => {
    // Failing again and again is usually a stale deployment: a full reload fetches the new index.
    if (attempt >= 2) window.location.reload();
    else setAttempt((a) => a + 1);
  };
  return (
    <ScreenBoundary key={attempt} onRetry={retry}>
      <Suspense fallback={<ScreenLoading />}>
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
}

/** Shows the screen only when the license grants its module (the server refuses it anyway). */
export function ModuleGate({ route, children }: { route: ScreenRoute; children: ReactNode }) {
  const modules = useQuery({ ...licenseQueries.roleModules(), enabled: route.module !== null });
  if (route.module === null) return children;
  // Unknown (still loading, or failed: errors are only logged) → let the screen and the server decide.
  if (!modules.data) return children;
  if (modules.data.some((m) => m.module_code === route.module)) return children;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, md: 6 } }}>
      <StateMessage icon={<BlockRoundedIcon />} title={T.notAllowedTitle} body={T.notAllowedBody}>
        <Button component={RouterLink} to={PATHS.home} variant="contained" sx={{ mt: 3 }}>
          {T.backHome}
        </Button>
      </StateMessage>
    </Box>
  );
}
