import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { notify } from '../../../lib/notifier.js';
import { timezones } from '../../../lib/timezones.js';
import { opsKeys, updateSettings, useSettings } from '../api/operations.js';
import { OT } from '../lib/texts.js';
import { Section } from './parts.js';

/** The organisation's market zone (issue 25): what a day is for its periods, windows and schedules. */
export function ZonePanel() {
  const qc = useQueryClient();
  const settings = useSettings();
  const zones = useMemo(timezones, []);
  const [zone, setZone] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (settings.data) setZone(settings.data.market_zone);
  }, [settings.data]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!zone) return;
    setSaving(true);
    try {
      const saved = await updateSettings(zone);
      qc.setQueryData(opsKeys.settings(), saved);
      // every figure of the organisation follows the zone: read them again
      await qc.invalidateQueries();
      notify(OT.zoneSaved(saved.market_zone), 'success');
    } catch {
      // said by the API client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Section id="market-zone" title={OT.zoneTitle}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {OT.zoneBody}
        </Typography>
        {settings.isError ? (
          <Typography role="alert" color="error">
            {OT.zoneError}
          </Typography>
        ) : (
          <Stack
            component="form"
            direction={{ xs: 'column', sm: 'row' }}
            gap={2}
            onSubmit={(e) => void submit(e)}
          >
            <Autocomplete
              sx={{ flex: 1, maxWidth: 420 }}
              options={zones}
              value={zone}
              onChange={(_e, v) => setZone(v)}
              disabled={settings.isPending}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={OT.zoneLabel}
                  placeholder={settings.isPending ? OT.zoneLoading : undefined}
                  inputProps={{ ...params.inputProps, 'data-testid': 'market-zone' }}
                />
              )}
            />
            <Button
              type="submit"
              variant="contained"
              disabled={!zone || saving || zone === settings.data?.market_zone}
            >
              {OT.save}
            </Button>
          </Stack>
        )}
      </Paper>
    </Section>
  );
}
