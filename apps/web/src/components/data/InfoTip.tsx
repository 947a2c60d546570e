import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';

/**
 * A small ⓘ that explains a figure: reachable with the keyboard and read by screen readers (a focusable
 * wrapper carries the text; the icon itself stays decorative — an aria-hidden icon must not take focus).
 */
export function InfoTip({ text, size = 15 }: { text: string; size?: number }) {
  return (
    <Tooltip title={text}>
      <Box
        component="span"
        role="img"
        tabIndex={0}
        aria-label={text}
        sx={{ display: 'inline-flex', color: 'text.secondary', borderRadius: '50%' }}
      >
        <InfoOutlinedIcon aria-hidden sx={{ fontSize: size }} />
      </Box>
    </Tooltip>
  );
}
