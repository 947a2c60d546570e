import SearchOffRoundedIcon from '@mui/icons-material/SearchOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { PATHS } from '../../lib/paths.js';
import { PageHeader } from './PageHeader.js';
import { StateMessage } from './StateMessage.js';

/** Title of the not-found view (also the document title of an unknown /app path). */
export const NOT_FOUND_TITLE = 'Página no encontrada';

/**
 * The app's not-found view, inside the frame: an unknown path under /app (a mistyped or truncated shared
 * link, /app/dpm-by-brand.xlsx) lands here instead of on raw JSON or a blank screen.
 */
export default function NotFoundPage() {
  return (
    <>
      <PageHeader title={NOT_FOUND_TITLE} />
      <StateMessage
        icon={<SearchOffRoundedIcon />}
        title="No encontramos esta página"
        body="Puede que el enlace esté incompleto o que la página ya no exista. Vuelve al inicio o elige una vista en el menú."
      >
        <Box sx={{ display: 'flex', gap: 1, mt: 3, flexWrap: 'wrap', justifyContent: 'center' }}>
          <Button component={RouterLink} to={PATHS.home} variant="contained">
            Ir al inicio
          </Button>
        </Box>
      </StateMessage>
    </>
  );
}
