import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import {
  CHANNEL_LABELS,
  NAMESPACE_LABELS,
  NAMESPACE_SIZE_BOUNDS,
  NAMESPACE_SIZE_LABELS,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotificationSubscription,
} from '@vigia/domain';
import { useId, useState } from 'react';
import { NumberField, numberError } from '../../../components/filters/NumberField.js';
import { notify } from '../../../lib/notifier.js';
import { notificationKeys, saveNotificationSubscription } from '../api/queries.js';

export interface Option {
  id: number;
  name: string;
}

const NAMESPACE_HINTS: Record<NotificationSubscription['namespace'], string> = {
  prices:
    'Un competidor pasa a ser (o deja de ser) el más barato en uno de tus productos, o cambia su precio normal por 3 días o más.',
  promotions: 'Un competidor inicia o termina promociones en productos que también vendes.',
  assortment: 'Un competidor se queda sin stock, repone o empieza a vender productos que también vendes.',
  images: 'Una verificación de imagen de tus productos pasa a incorrecta.',
  reports: 'Un reporte tuyo está listo o falló.',
};
/** The conditions of a subscription: only these sellers / brands / classifications (none = all). */
const CONDITIONS = [
  ['sellers', 'eCommerce'],
  ['brands', 'Marcas'],
  ['classifications', 'Clasificaciones'],
] as const;
const HOURS = Array.from({ length: 24 }, (_, h) => h);

function MultiPicker({
  label,
  options,
  value,
  onChange,
  disabled,
}: {
  label: string;
  options: Option[];
  value: number[];
  onChange: (ids: number[]) => void;
  disabled: boolean;
}) {
  const selected = options.filter((o) => value.includes(o.id));
  return (
    <Autocomplete
      multiple
      size="small"
      disabled={disabled}
      options={options}
      value={selected}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, v) => onChange(v.map((o) => o.id))}
      noOptionsText="Sin opciones"
      renderInput={(params) => (
        // the label stays up so that an empty pick reads "Todos" (it means all; issue 31 item 12)
        <TextField
          {...params}
          label={label}
          placeholder={selected.length ? '' : 'Todos'}
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
        />
      )}
      sx={{ minWidth: 240, flex: 1 }}
    />
  );
}

/** One namespace's subscription: its form and "Guardar". */
export function SubscriptionCard({
  subscription,
  timezone,
  options,
}: {
  subscription: NotificationSubscription & { licensed: boolean };
  timezone: string;
  options: { sellers: Option[]; brands: Option[]; classifications: Option[] };
}) {
  const { licensed, ...initial } = subscription;
  const [s, setS] = useState<NotificationSubscription>(initial);
  const [saving, setSaving] = useState(false);
  // the number field holds something that may not be saved (said on the field)
  const [invalid, setInvalid] = useState(false);
  const queryClient = useQueryClient();
  const id = useId();
  const ns = s.namespace;
  const off = !licensed || !s.enabled;
  const dirty = JSON.stringify(s) !== JSON.stringify(initial);
  const set = <K extends keyof NotificationSubscription>(k: K, v: NotificationSubscription[K]) =>
    setS((p) => ({ ...p, [k]: v }));

  const save = async () => {
    setSaving(true);
    try {
      await saveNotificationSubscription(s);
      notify(`Suscripción de ${NAMESPACE_LABELS[ns]} guardada.`, 'success');
      await queryClient.invalidateQueries({ queryKey: notificationKeys.subscriptions() });
    } catch {
      // the API client already showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={`${id}-title`}
      sx={{ p: 2.5 }}
      data-testid={`subscription-${ns}`}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <Box>
          <Typography id={`${id}-title`} variant="h6" component="h2">
            {NAMESPACE_LABELS[ns]}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {licensed ? NAMESPACE_HINTS[ns] : 'No incluido en tu licencia.'}
          </Typography>
        </Box>
        <FormControlLabel
          control={
            <Switch
              checked={s.enabled && licensed}
              disabled={!licensed}
              onChange={(e) => set('enabled', e.target.checked)}
            />
          }
          label={s.enabled && licensed ? 'Activada' : 'Desactivada'}
        />
      </Box>
      {licensed && (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
            <FormControl size="small" sx={{ minWidth: 300 }} disabled={off}>
              <InputLabel id={`${id}-channel`}>Cómo avisarte</InputLabel>
              <Select
                labelId={`${id}-channel`}
                label="Cómo avisarte"
                value={s.channel}
                onChange={(e) => set('channel', e.target.value as NotificationChannel)}
              >
                {NOTIFICATION_CHANNELS.map((c) => (
                  <MenuItem key={c} value={c}>
                    {CHANNEL_LABELS[c]}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            {s.channel === 'email_digest' && (
              <FormControl size="small" sx={{ minWidth: 200 }} disabled={off}>
                <InputLabel id={`${id}-hour`}>Hora del resumen</InputLabel>
                <Select
                  labelId={`${id}-hour`}
                  label="Hora del resumen"
                  value={s.digest_hour}
                  onChange={(e) => set('digest_hour', Number(e.target.value))}
                >
                  {HOURS.map((h) => (
                    <MenuItem key={h} value={h}>
                      {`${String(h).padStart(2, '0')}:00 (${timezone})`}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
            )}
            <NumberField
              size="small"
              label={NAMESPACE_SIZE_LABELS[ns]}
              value={s.min_size}
              disabled={off}
              live
              required
              bounds={{ ...NAMESPACE_SIZE_BOUNDS[ns], required: true }}
              onCommit={(v) => {
                setInvalid(false);
                if (v !== null) set('min_size', v);
              }}
              onInput={(e) =>
                setInvalid(
                  numberError((e.target as HTMLInputElement).value, {
                    ...NAMESPACE_SIZE_BOUNDS[ns],
                    required: true,
                  }) !== null,
                )
              }
              sx={{ width: 240 }}
            />
          </Box>
          {ns !== 'reports' && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
              {CONDITIONS.map(([key, label]) => (
                <MultiPicker
                  key={key}
                  label={label}
                  options={options[key]}
                  value={s[key]}
                  onChange={(v) => set(key, v)}
                  disabled={off}
                />
              ))}
            </Box>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
            <Button variant="contained" disabled={!dirty || saving || invalid} onClick={() => void save()}>
              Guardar
            </Button>
          </Box>
        </>
      )}
    </Paper>
  );
}
