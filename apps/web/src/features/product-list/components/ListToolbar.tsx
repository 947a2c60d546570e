import SearchRoundedIcon from '@mui/icons-material/SearchRounded';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import type { ListCriteria, SellerScope, TriState } from '../criteria.js';

export interface SellerOption {
  value: SellerScope;
  label: string;
}

/** Search box (debounced) and the list's filters; every field is labelled. */
export function ListToolbar({
  criteria,
  sellerOptions,
  onChange,
}: {
  criteria: ListCriteria;
  sellerOptions: SellerOption[];
  onChange: (patch: Partial<ListCriteria>) => void;
}) {
  const [search, setSearch] = useState(criteria.search);
  useEffect(() => setSearch(criteria.search), [criteria.search]);
  useEffect(() => {
    if (search.trim() === criteria.search) return;
    const t = setTimeout(() => onChange({ search: search.trim() }), 350);
    return () => clearTimeout(t);
  }, [search, criteria.search, onChange]);

  const sellerValue = String(criteria.seller);
  return (
    <Box
      role="search"
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: '1fr', md: 'minmax(260px, 2fr) repeat(3, minmax(160px, 1fr))' },
      }}
    >
      <TextField
        label="Buscar"
        placeholder="Nombre, SKU, EAN o ID del producto"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange({ search: search.trim() });
        }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchRoundedIcon fontSize="small" />
              </InputAdornment>
            ),
          },
          htmlInput: { maxLength: 200 },
        }}
      />
      <TextField
        select
        label="eCommerce"
        value={sellerValue}
        onChange={(e) => {
          const v = e.target.value;
          onChange({ seller: v === 'pivot' || v === 'all' ? v : Number(v) });
        }}
      >
        {sellerOptions.map((o) => (
          <MenuItem key={String(o.value)} value={String(o.value)}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Match"
        value={criteria.match}
        onChange={(e) => onChange({ match: e.target.value as TriState })}
      >
        <MenuItem value="all">Todos</MenuItem>
        <MenuItem value="yes">Con match</MenuItem>
        <MenuItem value="no">Sin match</MenuItem>
      </TextField>
      <TextField
        select
        label="Disponibilidad"
        value={criteria.stock}
        onChange={(e) => onChange({ stock: e.target.value as TriState })}
      >
        <MenuItem value="all">Todas</MenuItem>
        <MenuItem value="no">Disponibles</MenuItem>
        <MenuItem value="yes">Sin stock</MenuItem>
      </TextField>
    </Box>
  );
}
