import ConstructionRoundedIcon from '@mui/icons-material/ConstructionRounded';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { PATHS } from '../../lib/paths.js';
import { T } from '../../lib/texts.js';
import { PageHeader } from './PageHeader.js';
import { StateMessage } from './StateMessage.js';

/** Placeholder of a screen not built yet; its route's registry entry points here until it is. */
export default function ComingSoonPage() {
  return (
    <>
      <PageHeader overline={T.comingSoon} />
      <StateMessage icon={<ConstructionRoundedIcon />} title={T.comingSoon} body={T.comingSoonBody}>
        <Button component={RouterLink} to={PATHS.home} variant="outlined" sx={{ mt: 3 }}>
          {T.backHome}
        </Button>
      </StateMessage>
    </>
  );
}
