import type { FieldInfo } from '../schema/model.js';
import { TIERS, type Tier, type TierMap } from './model.js';

/**
 * The text a document is made of. Only what readers see as text goes in:
 * Portable Text contributes the text of its spans, never JSON keys, marks or
 * block types. Every tier together is capped so one huge entry cannot exceed
 * PostgreSQL's tsvector limit (the same cap applies on SQLite).
 */
export const MAX_DOCUMENT_CHARS = 200_000;

// C0/C1 controls except tab and newline; \u0001/\u0002 also mark snippet matches.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function cleanText(text: string): string {
  return text.replace(CONTROLS, ' ').replace(LONE_SURROGATE, '\ufffd');
}

/** Text of Portable Text blocks: span texts, one line per block. */
export function portableTextToText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  const lines: string[] = [];
  for (const block of value) {
    if (!block || typeof block !== 'object') continue;
    const b = block as { _type?: unknown; children?: unknown };
    if (b._type !== 'block' || !Array.isArray(b.children)) continue;
    let line = '';
    for (const child of b.children) {
      const span = child as { _type?: unknown; text?: unknown } | null;
      if (span && span._type === 'span' && typeof span.text === 'string') line += span.text;
    }
    if (line) lines.push(line);
  }
  return lines.join('\n');
}

/** The searchable text of one field value. */
export function fieldText(f: Pick<FieldInfo, 'type'>, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (f.type) {
    case 'portableText':
      return portableTextToText(value);
    case 'multiSelect':
      return Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(' ') : '';
    default:
      return typeof value === 'string' ? value : '';
  }
}

/** A document's four tier texts from field values keyed by field slug. */
export function tierTexts(fields: FieldInfo[], data: Record<string, unknown>, tiers: TierMap): Record<Tier, string> {
  const parts: Record<Tier, string[]> = { a: [], b: [], c: [], d: [] };
  for (const f of fields) {
    const tier = tiers[f.id];
    if (!tier) continue;
    const text = fieldText(f, data[f.slug]);
    if (text) parts[tier].push(cleanText(text));
  }
  let budget = MAX_DOCUMENT_CHARS;
  const out = { a: '', b: '', c: '', d: '' } as Record<Tier, string>;
  for (const t of TIERS) {
    const joined = parts[t].join('\n');
    out[t] = joined.length > budget ? cutAt(joined, budget) : joined;
    budget = Math.max(0, budget - out[t].length);
  }
  return out;
}

/** Cut without splitting a surrogate pair. */
function cutAt(text: string, max: number): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** The display title of an entry, cut to a sensible length. */
export function titleText(value: unknown): string {
  return typeof value === 'string' ? cutAt(cleanText(value), 500) : '';
}
