import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { downloadQmiHistory, type HistoryFormat } from '../api/queries.js';
import type { Period } from '../period.js';

const FORMATS: { value: HistoryFormat; label: string; hint: string }[] = [
  { value: 'xlsx', label: 'Excel (XLSX)', hint: 'Para abrir en Excel u hojas de cálculo' },
  { value: 'csv', label: 'CSV', hint: 'Texto separado por punto y coma' },
];

/** Downloads the listing's price history of the period (the download variant of /v2/detail/qmi/history). */
export function DownloadHistoryButton({
  productId,
  sellerId,
  currency,
  period,
  disabled,
}: {
  productId: string;
  sellerId: number;
  currency: string;
  period: Period;
  disabled?: boolean;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const menuId = useId();

  const download = async (format: HistoryFormat) => {
    setAnchor(null);
    setBusy(true);
    try {
      await downloadQmiHistory(productId, sellerId, currency, period, format);
    } catch {
      // Reported in the snackbar with the seed's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={busy ? <CircularProgress size={16} /> : <FileDownloadOutlinedIcon />}
        endIcon={<KeyboardArrowDownIcon />}
        disabled={disabled || busy}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {busy ? 'Descargando…' : 'Descargar histórico'}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {FORMATS.map((f) => (
          <MenuItem key={f.value} onClick={() => download(f.value)}>
            <ListItemText primary={f.label} secondary={f.hint} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
