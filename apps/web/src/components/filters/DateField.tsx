import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import type { SxProps, Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  DATE_TEXT_PLACEHOLDER,
  dateTextToIso,
  dateTextValue,
  isoToDateText,
  maskDateText,
} from './date-text.js';

export interface DateFieldProps {
  id?: string;
  label: string;
  /** ISO yyyy-mm-dd, '' for none, or text that is not a date yet (see dateTextValue). */
  value: string;
  onChange: (value: string) => void;
  /** ISO bounds for the calendar. */
  min?: string;
  max?: string;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  /** id of an element describing the field (an error shown elsewhere). */
  describedBy?: string;
  sx?: SxProps<Theme>;
}

/**
 * A date typed and shown as dd-mm-aaaa in every browser, with a calendar button that opens the browser's
 * own date picker. Keeps ISO in `value`; an incomplete or impossible date reaches the form as typed so
 * the form's validation names the field.
 */
export function DateField(props: DateFieldProps) {
  const { id, label, value, onChange, min, max, error, helperText, disabled, describedBy, sx } = props;
  const [text, setText] = useState(() => isoToDateText(value));
  const picker = useRef<HTMLInputElement>(null);

  // Follow changes made elsewhere (quick periods, Limpiar, the URL) unless the text already says it.
  useEffect(() => {
    setText((t) => (dateTextValue(t) === value ? t : isoToDateText(value)));
  }, [value]);

  const type = (raw: string) => {
    const next = maskDateText(raw);
    setText(next);
    onChange(dateTextValue(next));
  };
  const openCalendar = () => {
    const el = picker.current;
    if (!el) return;
    try {
      el.showPicker();
    } catch {
      el.focus();
    }
  };

  return (
    <TextField
      id={id}
      label={label}
      value={text}
      disabled={disabled}
      error={error}
      helperText={helperText}
      placeholder={DATE_TEXT_PLACEHOLDER}
      onChange={(e) => type(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' && e.altKey) {
          e.preventDefault();
          openCalendar();
        }
      }}
      sx={[
        {
          minWidth: 0,
          '& .MuiInputBase-root': { pr: 0.5 },
          '& .MuiInputBase-input': { pl: 1.25, fontVariantNumeric: 'tabular-nums', textOverflow: 'clip' },
          '& .MuiInputBase-input::placeholder': { fontSize: '0.875rem' },
          '& .MuiInputAdornment-root': { ml: 0.25 },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: {
          inputMode: 'numeric',
          autoComplete: 'off',
          maxLength: 10,
          'aria-describedby': describedBy,
        },
        input: {
          endAdornment: (
            <InputAdornment position="end" sx={{ position: 'relative' }}>
              <IconButton
                size="small"
                sx={{ p: 0.5 }}
                disabled={disabled}
                aria-label={`Elegir fecha: ${label}`}
                onClick={openCalendar}
              >
                <CalendarMonthOutlinedIcon fontSize="small" />
              </IconButton>
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden
                value={dateTextToIso(text) ?? ''}
                min={min}
                max={max}
                onChange={(e) => {
                  setText(isoToDateText(e.target.value));
                  onChange(e.target.value);
                }}
                style={{
                  position: 'absolute',
                  right: 0,
                  bottom: 0,
                  width: 1,
                  height: 1,
                  opacity: 0,
                  border: 0,
                  padding: 0,
                  pointerEvents: 'none',
                }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
