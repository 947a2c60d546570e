import CheckCircleRoundedIcon from '@mui/icons-material/CheckCircleRounded';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import RadioButtonUncheckedRoundedIcon from '@mui/icons-material/RadioButtonUncheckedRounded';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ProductMark } from '../../../components/shell/ProductMark.js';
import { BRAND } from '../../../lib/brand.js';
import { CORE_LICENSE_QUERIES, licenseQueries } from '../../../lib/license.js';
import { loadBrands } from '../../../lib/license-load.js';
import { PATHS, RETURN_PARAM, safeReturnPath } from '../../../lib/paths.js';
import { queryClient } from '../../../lib/query-client.js';
import { T } from '../../../lib/texts.js';

type StepState = 'waiting' | 'loading' | 'done' | 'failed';
const STEPS = [...CORE_LICENSE_QUERIES.map((q) => q.label), 'Marcas'];

/** Fetches one cached query; errors are only logged (seed 000 §8). */
async function load(label: string, run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    console.error(`Error cargando ${label}`, error);
    return false;
  }
}

/**
 * /dependencies-loader: after login, loads the license data (currencies, pivots, role modules, sellers,
 * sellers by country, app configuration, brands) into the query cache, all at once (brands once the
 * pivots, currencies and competitors are in), then opens /app/.
 */
export default function DependenciesLoaderPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const returnTo = safeReturnPath(searchParams.get(RETURN_PARAM));
  const [states, setStates] = useState<StepState[]>(() => STEPS.map(() => 'waiting'));
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const mark = (i: number, s: StepState) => setStates((prev) => prev.map((p, j) => (j === i ? s : p)));
    void (async () => {
      // The lists are independent: asked at once (issue 31 item 11 — one after another they were seven
      // round trips before Inicio). Brands need the pivots, currencies and competitors: they start as
      // soon as those three have answered, while the others may still be on their way.
      // Not waited for: the licensed classifications every filtered screen judges its link with (login
      // has usually asked already: the same request is joined, not repeated).
      void queryClient.prefetchQuery(licenseQueries.classificationTree());
      const loaded = CORE_LICENSE_QUERIES.map(async (q, i) => {
        mark(i, 'loading');
        const ok = await load(q.label, () => q.fetch(queryClient));
        mark(i, ok ? 'done' : 'failed');
      });
      const brandsStep = STEPS.length - 1;
      // Brands of the pivot and the competitors the user compares against, once their lists are in.
      const brands = (async () => {
        mark(brandsStep, 'loading');
        const ok = await load('Marcas', () => loadBrands(queryClient));
        mark(brandsStep, ok ? 'done' : 'failed');
      })();
      await Promise.all([...loaded, brands]);
      // Back to the page a shared link asked for (same-origin /app path only), else Home.
      navigate(returnTo ?? PATHS.home, { replace: true });
    })();
  }, [navigate, returnTo]);

  const finished = states.filter((s) => s === 'done' || s === 'failed').length;
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, background: BRAND.gradient }}>
      <Paper
        sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4.5 }, borderRadius: 4, textAlign: 'center' }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
          <ProductMark size={56} />
        </Box>
        <Typography variant="h5" component="h1">
          {T.loadingTitle}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
          {T.loadingSubtitle}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={(finished / STEPS.length) * 100}
          aria-label={T.loadingTitle}
          sx={{ height: 8, mb: 3 }}
        />
        <Box
          component="ul"
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, textAlign: 'left' }}
        >
          {STEPS.map((label, i) => (
            <Box
              component="li"
              key={label}
              sx={{ display: 'flex', alignItems: 'center', gap: 1.5, fontSize: 14 }}
            >
              {states[i] === 'done' && <CheckCircleRoundedIcon color="success" fontSize="small" />}
              {states[i] === 'failed' && <ErrorOutlineRoundedIcon color="warning" fontSize="small" />}
              {states[i] === 'loading' && <CircularProgress size={18} />}
              {states[i] === 'waiting' && (
                <RadioButtonUncheckedRoundedIcon color="disabled" fontSize="small" />
              )}
              <Typography variant="body2" color={states[i] === 'waiting' ? 'text.secondary' : 'text.primary'}>
                {label}
              </Typography>
            </Box>
          ))}
        </Box>
      </Paper>
    </Box>
  );
}
