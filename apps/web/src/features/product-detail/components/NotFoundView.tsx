import SearchOffRoundedIcon from '@mui/icons-material/SearchOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { StateMessage } from '../../../components/page/StateMessage.js';
import { appPath } from '../../../lib/paths.js';

/** `what` carries its own article ('este producto', 'esta publicación'). The product does not exist or is outside the license (the answer has no _id, seed 001 §4). */
export function NotFoundView({ what = 'este producto' }: { what?: string }) {
  return (
    <StateMessage
      icon={<SearchOffRoundedIcon />}
      title={`No encontramos ${what}`}
      body="Puede que ya no esté publicado, que el enlace esté incompleto o que no forme parte de tu licencia. Búscalo en la lista de productos."
    >
      <Box sx={{ display: 'flex', gap: 1, mt: 3, flexWrap: 'wrap', justifyContent: 'center' }}>
        <Button component={RouterLink} to={appPath('product-list')} variant="contained">
          Ir a la lista de productos
        </Button>
        <Button component={RouterLink} to={appPath('dashboard')} variant="outlined">
          Volver al dashboard
        </Button>
      </Box>
    </StateMessage>
  );
}
