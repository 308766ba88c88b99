/** Human output: aligned tables and key/value blocks (scripts use --json). */

/** Control characters would let stored text move the cursor or recolour the terminal: shown escaped. */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) =>
    ch === '\t' ? ' ' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

const width = (text: string) => [...text].length;

/** Columns padded to their widest cell; the last column is not padded. */
export function table(headers: string[], rows: string[][]): string {
  const cells = rows.map((r) => r.map((c) => printable(c)));
  const widths = headers.map((h, i) => Math.max(width(h), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - width(c))))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n');
}

export function keyValues(pairs: Array<[string, string | null | undefined]>): string {
  const shown = pairs.filter(([, v]) => v !== undefined);
  const w = Math.max(...shown.map(([k]) => width(k)));
  return shown.map(([k, v]) => `${k.padEnd(w)}  ${printable(v ?? '—')}`).join('\n');
}

const TITLE_KEYS = ['title', 'name', 'label', 'heading', 'headline'];

/** A readable title for an entry: its title-like field, else its first short text value. */
export function titleOf(data: Record<string, unknown>): string {
  for (const key of TITLE_KEYS) if (typeof data[key] === 'string' && data[key]) return data[key] as string;
  for (const value of Object.values(data)) if (typeof value === 'string' && value && value.length < 200) return value;
  return '';
}

/** 2026-01-02T03:04:05.678Z → 2026-01-02 03:04 (UTC); tables stay narrow, JSON keeps the instant. */
export function shortTime(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : '—';
}

/** 1234567 → 1.2 MB (decimal units, as file managers show sizes). */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
