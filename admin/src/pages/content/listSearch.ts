/** The entry list's address: every filter, the order and the starting cursor, so reloads and shared links open the same view. */
export interface EntryListSearch {
  view?: 'trash';
  locale?: string;
  status?: 'draft' | 'published' | 'scheduled';
  orderBy?: string;
  order?: 'asc' | 'desc';
  /** JSON object of indexed-field filters (the API's fieldFilters). */
  filters?: string;
  byline?: string;
  /** Full-text search (collections with `supports: search`): the list shows the search API's ranked matches. */
  q?: string;
  /** A taxonomy term, `<taxonomy>:<slug>` (the content list's `term` parameter). */
  term?: string;
  /** Cursor of the first loaded page (a shared link resumes there). */
  cursor?: string;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function parseListSearch(s: Record<string, unknown>): EntryListSearch {
  const status = str(s.status);
  const order = str(s.order);
  return {
    view: s.view === 'trash' ? 'trash' : undefined,
    locale: str(s.locale),
    status: status === 'draft' || status === 'published' || status === 'scheduled' ? status : undefined,
    orderBy: str(s.orderBy),
    order: order === 'asc' || order === 'desc' ? order : undefined,
    filters: str(s.filters),
    byline: str(s.byline),
    q: str(s.q),
    term: str(s.term),
    cursor: str(s.cursor),
  };
}

export type FieldFilter = {
  field: string;
  op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';
  value: string | number | boolean;
};

export function decodeFilters(raw: string | undefined): FieldFilter[] {
  if (!raw) return [];
  try {
    const obj = JSON.parse(raw) as Record<string, unknown>;
    const out: FieldFilter[] = [];
    for (const [field, cond] of Object.entries(obj)) {
      if (cond !== null && typeof cond === 'object' && !Array.isArray(cond)) {
        for (const [op, value] of Object.entries(cond as Record<string, unknown>)) {
          out.push({ field, op: op as FieldFilter['op'], value: value as FieldFilter['value'] });
        }
      } else out.push({ field, op: 'eq', value: cond as FieldFilter['value'] });
    }
    return out;
  } catch {
    return [];
  }
}

export function encodeFilters(list: FieldFilter[]): string | undefined {
  if (!list.length) return undefined;
  const obj: Record<string, Record<string, unknown>> = {};
  for (const f of list) obj[f.field] = { ...(obj[f.field] ?? {}), [f.op]: f.value };
  return JSON.stringify(obj);
}
