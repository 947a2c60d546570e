import { Autocomplete, Box, Checkbox, Chip, createFilterOptions, TextField, Typography } from '@mui/material';
import { useMemo } from 'react';
import { FILTER_TEXT } from './labels.js';
import {
  coveredByAncestor,
  filterTreeOptions,
  type TreeOption,
  toggleTreeSelection,
} from './tree-options.js';

/** One choice of a multi-select; tree options carry depth, path and ancestors. */
export interface FieldOption {
  id: number;
  label: string;
  group?: string;
  /** Small text after the label (e.g. 'Propia'). */
  badge?: string;
  /** Tree options only. */
  depth?: number;
  path?: string;
  ancestors?: number[];
}

export interface OptionsFieldProps {
  id: string;
  label: string;
  options: readonly FieldOption[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  /** Tree semantics: a node covers its subtree (indented options, search keeps ancestors). */
  tree?: boolean;
  loading?: boolean;
  error?: string;
  helperText?: string;
  placeholder?: string;
  /** Shown when nothing is selected and an empty selection means a default (e.g. 'Todos los seleccionados'). */
  emptyMeaning?: string;
}

const plainFilter = createFilterOptions<FieldOption>({ ignoreAccents: true, ignoreCase: true, limit: 300 });

function asTree(o: FieldOption): TreeOption {
  return {
    id: o.id,
    name: o.label,
    depth: o.depth ?? 0,
    path: o.path ?? o.label,
    ancestors: o.ancestors ?? [],
    group: o.group,
  };
}

/** A labelled, searchable multi-select with checkboxes and chips (lists and trees). */
export function OptionsField({
  id,
  label,
  options,
  value,
  onChange,
  tree,
  loading,
  error,
  helperText,
  placeholder,
  emptyMeaning,
}: OptionsFieldProps) {
  const byId = useMemo(() => new Map(options.map((o) => [o.id, o])), [options]);
  const treeOptions = useMemo(() => (tree ? options.map(asTree) : []), [tree, options]);
  const selected = useMemo(
    () => value.map((v) => byId.get(v)).filter((o): o is FieldOption => !!o),
    [value, byId],
  );
  const selectedSet = useMemo(() => new Set(value), [value]);

  return (
    <Autocomplete<FieldOption, true, false, false>
      id={id}
      multiple
      disableCloseOnSelect
      options={options as FieldOption[]}
      value={selected}
      loading={loading}
      loadingText={FILTER_TEXT.loadingOptions}
      // Not the locale's 'Limpiar': that is the panel's button.
      clearText={`Borrar ${label}`}
      noOptionsText={FILTER_TEXT.noOptions}
      limitTags={1}
      size="small"
      groupBy={tree ? undefined : options.some((o) => o.group) ? (o) => o.group ?? '' : undefined}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionDisabled={tree ? (o) => coveredByAncestor(asTree(o), selectedSet) : undefined}
      filterOptions={(opts, state) => {
        if (!tree) return plainFilter(opts, state);
        const keep = new Set(filterTreeOptions(treeOptions, state.inputValue).map((o) => o.id));
        return opts.filter((o) => keep.has(o.id));
      }}
      onChange={(_, next, reason, details) => {
        if (reason === 'clear') return onChange([]);
        if (tree && reason === 'selectOption' && details?.option) {
          return onChange(toggleTreeSelection(treeOptions, value, details.option.id));
        }
        onChange(next.map((o) => o.id));
      }}
      renderOption={(props, option, { selected: isSelected }) => {
        const { key, ...rest } = props as typeof props & { key: string };
        const covered = tree && coveredByAncestor(asTree(option), selectedSet);
        return (
          <Box
            component="li"
            key={key}
            {...rest}
            sx={{ pl: `${8 + (option.depth ?? 0) * 18}px !important`, py: '2px !important' }}
          >
            <Checkbox
              size="small"
              checked={isSelected || !!covered}
              sx={{ p: 0.5, mr: 0.5 }}
              tabIndex={-1}
              disableRipple
            />
            <Typography
              variant="body2"
              component="span"
              sx={{ fontWeight: tree && (option.depth ?? 0) === 0 ? 600 : 400, flex: 1, minWidth: 0 }}
            >
              {option.label}
            </Typography>
            {option.badge && (
              <Chip
                label={option.badge}
                size="small"
                color="secondary"
                variant="outlined"
                sx={{ height: 18, fontSize: 10, ml: 1 }}
              />
            )}
          </Box>
        );
      }}
      renderValue={(items, getItemProps) =>
        items.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip
              key={key}
              {...itemProps}
              size="small"
              label={option.label}
              title={option.path ?? option.label}
              sx={{ maxWidth: 140, height: 22 }}
            />
          );
        })
      }
      // Closed, the chips stay on one line ('Ahorro Express +10'); open, they wrap to show them all.
      sx={{ '&:not(.Mui-focused) .MuiAutocomplete-inputRoot': { flexWrap: 'nowrap' } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={!!error}
          helperText={error ?? helperText}
          placeholder={selected.length ? undefined : (emptyMeaning ?? placeholder)}
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
        />
      )}
    />
  );
}
