import SearchRoundedIcon from '@mui/icons-material/SearchRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListSubheader from '@mui/material/ListSubheader';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { SellersByCountry } from '../../lib/license.js';
import { T } from '../../lib/texts.js';
import { CountryFlag } from './CountryFlag.js';

/**
 * The competitors multi-select of the top bar, grouped by country with flags. Choices are applied
 * together ("Aplicar") so the current screen searches once, not once per click.
 */
export function CompetitorsPicker({
  groups,
  selected,
  excludeId,
  onApply,
  buttonSx,
}: {
  groups: SellersByCountry[];
  selected: number[];
  /** The pivot: never its own competitor. */
  excludeId: number | null;
  onApply: (ids: number[]) => void;
  buttonSx?: object;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [draft, setDraft] = useState<Set<number>>(new Set());
  const [filter, setFilter] = useState('');

  const visibleGroups = useMemo(
    () =>
      groups
        .map((g) => ({ ...g, sellers: g.sellers.filter((s) => s.id !== excludeId) }))
        .filter((g) => g.sellers.length > 0),
    [groups, excludeId],
  );
  const allIds = useMemo(() => visibleGroups.flatMap((g) => g.sellers.map((s) => s.id)), [visibleGroups]);
  const selectedCount = selected.filter((id) => allIds.includes(id)).length;
  const q = filter.trim().toLowerCase();

  const open = (el: HTMLElement) => {
    setDraft(new Set(selected));
    setFilter('');
    setAnchor(el);
  };
  const toggle = (ids: number[], on: boolean) =>
    setDraft((d) => {
      const next = new Set(d);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  return (
    <>
      <Button
        onClick={(e) => open(e.currentTarget)}
        startIcon={<StorefrontRoundedIcon />}
        aria-haspopup="dialog"
        sx={buttonSx}
      >
        <Box
          component="span"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', lineHeight: 1.1 }}
        >
          <Box component="span" sx={{ fontSize: 11, opacity: 0.8, fontWeight: 500 }}>
            {T.competitors}
          </Box>
          {/* the name is the visible text ("Competidores Todos (11)"), words apart */}{' '}
          <Box component="span" sx={{ fontSize: 14 }}>
            {T.competitorsCount(selectedCount, allIds.length)}
          </Box>
        </Box>
      </Button>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{
          paper: { sx: { width: 340, mt: 1, borderRadius: 3 }, role: 'dialog', 'aria-label': T.competitors },
        }}
      >
        <Box sx={{ p: 2, pb: 1 }}>
          <Typography variant="subtitle1">{T.competitors}</Typography>
          <TextField
            autoFocus
            placeholder={T.searchSeller}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            sx={{ mt: 1 }}
            slotProps={{
              htmlInput: { 'aria-label': T.searchSeller },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchRoundedIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Box>
        <List dense sx={{ maxHeight: 360, overflow: 'auto', py: 0 }}>
          {visibleGroups.map((g) => {
            const sellers = g.sellers.filter((s) => !q || s.name.toLowerCase().includes(q));
            if (sellers.length === 0) return null;
            const ids = sellers.map((s) => s.id);
            const on = ids.filter((id) => draft.has(id)).length;
            return (
              <li key={g.country}>
                <ul style={{ padding: 0 }}>
                  <ListSubheader
                    sx={{
                      display: 'flex',
                      alignItems: 'center',
                      gap: 1,
                      lineHeight: '36px',
                      bgcolor: '#faf8fd',
                    }}
                  >
                    <CountryFlag code={g.country} flag={g.country_flag} name={g.country_name} />
                    <Box component="span" sx={{ flex: 1, fontWeight: 700 }}>
                      {g.country_name}
                    </Box>
                    <Checkbox
                      size="small"
                      edge="end"
                      checked={on === ids.length}
                      indeterminate={on > 0 && on < ids.length}
                      onChange={(e) => toggle(ids, e.target.checked)}
                      slotProps={{ input: { 'aria-label': `${T.selectAll}: ${g.country_name}` } }}
                    />
                  </ListSubheader>
                  {/* one control per seller: its checkbox, named by the label around it (no button around
                      a checkbox: nested-interactive) */}
                  {sellers.map((s) => (
                    <Box component="li" key={s.id} sx={{ listStyle: 'none' }}>
                      <Box
                        component="label"
                        sx={{
                          display: 'flex',
                          alignItems: 'center',
                          px: 2,
                          py: 0.25,
                          cursor: 'pointer',
                          '&:hover': { bgcolor: 'action.hover' },
                        }}
                      >
                        <Checkbox
                          size="small"
                          edge="start"
                          checked={draft.has(s.id)}
                          onChange={(e) => toggle([s.id], e.target.checked)}
                          sx={{ mr: 1 }}
                        />
                        <Box
                          aria-hidden
                          sx={{
                            width: 10,
                            height: 10,
                            borderRadius: '50%',
                            bgcolor: s.color,
                            mr: 1.25,
                            flexShrink: 0,
                          }}
                        />
                        <Typography variant="body2" component="span">
                          {s.name}
                        </Typography>
                      </Box>
                    </Box>
                  ))}
                </ul>
              </li>
            );
          })}
        </List>
        <Divider />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1.5 }}>
          <Button size="small" onClick={() => setDraft(new Set(allIds))}>
            {T.selectAll}
          </Button>
          <Button size="small" onClick={() => setDraft(new Set())}>
            {T.selectNone}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button size="small" color="inherit" onClick={() => setAnchor(null)}>
            {T.cancel}
          </Button>
          <Button
            size="small"
            variant="contained"
            onClick={() => {
              onApply(allIds.filter((id) => draft.has(id)));
              setAnchor(null);
            }}
          >
            {T.apply}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
