import { localeName, useLocales } from '../lib/locales';
import { SelectField } from './Field';

/** Which locale a screen shows; nothing on a single-language site. */
export function LocaleSelect({
  value,
  onValue,
  label = 'Locale',
  hint,
}: {
  value: string;
  onValue: (locale: string) => void;
  label?: string;
  hint?: string;
}) {
  const { locales, multilingual } = useLocales();
  if (!multilingual) return null;
  return (
    <SelectField label={label} hint={hint} name="locale" value={value} onValue={onValue}>
      {locales.map((l) => (
        <option key={l} value={l}>
          {localeName(l)}
        </option>
      ))}
    </SelectField>
  );
}
