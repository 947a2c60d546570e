import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { Fragment, type ReactNode } from 'react';

// Rows as cards (issue 31 item 6): on a phone a table of eight columns shows two words of a name and no
// price; the same rows as cards show every field, each under its column's name, one card per row.

/** One field of a card: the column's name and the row's value. */
export interface CardField<T> {
  label: string;
  value: (row: T) => ReactNode;
}

/** A list of rows as cards: `title` on top (e.g. the product's link), then every field named. */
export function CardList<T>({
  label,
  rows,
  rowKey,
  title,
  fields,
  testId,
}: {
  /** The list's accessible name (the table's, on a wide screen). */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  title: (row: T) => ReactNode;
  fields: readonly CardField<T>[];
  testId?: string;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      data-testid={testId}
      sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gap: 1 }}
    >
      {rows.map((row) => (
        <Paper component="li" key={rowKey(row)} variant="outlined" sx={{ p: 1.5 }}>
          <Box sx={{ fontWeight: 600, mb: 0.75, overflowWrap: 'anywhere' }}>{title(row)}</Box>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: 'auto 1fr',
              columnGap: 2,
              rowGap: 0.25,
              fontSize: 14,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
            }}
          >
            {fields.map((f) => (
              <Fragment key={f.label}>
                <dt>{f.label}</dt>
                <dd>{f.value(row)}</dd>
              </Fragment>
            ))}
          </Box>
        </Paper>
      ))}
    </Box>
  );
}
