import { TextField } from './Field';

/**
 * A setting that selects a media item (logo, favicon, social image). The
 * media library's picker plugs in here: it fills the same value (the item's
 * ID); until then the ID is typed or pasted from the library.
 */
export function MediaField({
  label,
  hint,
  value,
  onValue,
  error,
  disabled,
}: {
  label: string;
  hint: string;
  value: string;
  onValue: (id: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <TextField
      label={label}
      hint={`${hint} Paste the ID of a media item.`}
      optional
      spellCheck={false}
      autoComplete="off"
      placeholder="01J…"
      value={value}
      onValue={(v) => onValue(v.trim())}
      error={error}
      disabled={disabled}
    />
  );
}
