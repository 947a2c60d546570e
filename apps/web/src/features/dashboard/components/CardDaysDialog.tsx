import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { type DashboardCard, formatDate } from '@vigia/domain';
import { Link as RouterLink } from 'react-router';
import { usePhone } from '../../../components/page/use-phone.js';
import { appPath } from '../../../lib/paths.js';
import { formatCardValue } from '../cards.js';

/** Cards whose day figure is exactly the DPM index of that day (DPM with Desde = Hasta = the day). */
const DPM_DAY_CARDS = new Set<DashboardCard['key']>(['price_index', 'deviation']);

/** The DPM view of one day: its closing prices (Desde = Hasta = the day). */
export const dpmDayPath = (day: string) =>
  `${appPath('dpm-by-ecommerce')}?${new URLSearchParams({ from_date: day, to_date: day })}`;

/**
 * Where a dashboard card's number comes from (issue 31 item 1): the card's figure at the end of each day
 * of the period and the card's number as their average (the mode card: the most frequent bucket of all
 * the days together). The price cards open each day in DPM, which shows that day's closing prices.
 */
export function CardDaysDialog({
  card,
  currency,
  onClose,
}: {
  card: DashboardCard | null;
  currency: string;
  onClose: () => void;
}) {
  const phone = usePhone();
  const days = card?.days ?? [];
  const counted = days.filter((d) => d.value !== null).length;
  const isMode = card?.key === 'mode_discount';
  return (
    <Dialog
      open={!!card}
      onClose={onClose}
      fullScreen={phone}
      maxWidth="sm"
      fullWidth
      aria-labelledby="card-days-title"
    >
      <DialogTitle id="card-days-title">
        {card?.title}: cifra de cada día
        <Typography variant="body2" color="text.secondary">
          {isMode
            ? 'El descuento más frecuente de cada día; la tarjeta muestra el más frecuente sumando todos los días del período.'
            : 'Valor al cierre de cada día (hoy: el estado actual); la tarjeta muestra el promedio de los días con dato.'}
        </Typography>
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <Table size="small" aria-label={`${card?.title ?? ''} por día`}>
          <TableHead>
            <TableRow>
              <TableCell>Día</TableCell>
              <TableCell align="right">{card?.title}</TableCell>
              {card && DPM_DAY_CARDS.has(card.key) ? <TableCell>Detalle</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {days.map((d) => (
              <TableRow key={d.date} data-testid="card-day">
                <TableCell>{formatDate(d.date)}</TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {card ? formatCardValue({ unit: card.unit, value: d.value }, currency) : '—'}
                </TableCell>
                {card && DPM_DAY_CARDS.has(card.key) ? (
                  <TableCell>
                    <Link component={RouterLink} to={dpmDayPath(d.date)}>
                      Ver precios de ese día en DPM
                    </Link>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell sx={{ fontWeight: 700, color: 'text.primary' }}>
                {isMode ? 'Período' : `Promedio de ${counted} ${counted === 1 ? 'día' : 'días'}`}
              </TableCell>
              <TableCell
                align="right"
                data-testid="card-days-total"
                sx={{ fontWeight: 700, color: 'text.primary', fontVariantNumeric: 'tabular-nums' }}
              >
                {card ? formatCardValue(card, currency) : '—'}
              </TableCell>
              {card && DPM_DAY_CARDS.has(card.key) ? <TableCell /> : null}
            </TableRow>
          </TableFooter>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}
