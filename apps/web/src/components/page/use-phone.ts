import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/**
 * True below the `sm` breakpoint (a phone): dialogs that list rows take the whole screen there
 * (issue 31 item 6).
 */
export function usePhone(): boolean {
  return useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
}
