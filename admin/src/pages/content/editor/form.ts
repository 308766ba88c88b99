import type { Byline } from '../../../api/bylines';
import type { CollectionModel, ContentItem, LinkedEntry } from '../../../api/content';

/** What the editor edits: values, slug, linked entries of relation fields and byline credits. */
export interface FormState {
  data: Record<string, unknown>;
  slug: string;
  refs: Record<string, LinkedEntry[]>;
  credits: Array<{ byline: Byline; roleLabel: string | null }>;
}

export const isRelationField = (f: CollectionModel['fields'][number]) =>
  f.type === 'reference' && typeof f.validation?.targetCollection === 'string';

/** A new entry starts from the fields' default values. */
export function emptyForm(c: CollectionModel): FormState {
  const data: Record<string, unknown> = {};
  for (const f of c.fields) {
    if (isRelationField(f)) continue;
    if (f.defaultValue !== undefined) data[f.slug] = f.defaultValue;
    else if (f.type === 'boolean') data[f.slug] = false;
  }
  return { data, slug: '', refs: {}, credits: [] };
}

export function formFromItem(c: CollectionModel, item: ContentItem): FormState {
  const refs: Record<string, LinkedEntry[]> = {};
  for (const f of c.fields) if (isRelationField(f)) refs[f.slug] = item.references?.[f.slug]?.items ?? [];
  return {
    data: { ...item.data },
    slug: item.slug ?? '',
    refs,
    credits: item.bylines.flatMap((b) => (b.byline ? [{ byline: b.byline, roleLabel: b.roleLabel }] : [])),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields whose values differ between two states (data keys, plus `slug`, reference fields, `bylines`). */
export function changedKeys(c: CollectionModel, a: FormState, b: FormState): string[] {
  const out: string[] = [];
  if (a.slug !== b.slug) out.push('slug');
  for (const f of c.fields) {
    if (isRelationField(f)) {
      if (
        !same(
          a.refs[f.slug]?.map((x) => x.id),
          b.refs[f.slug]?.map((x) => x.id),
        )
      )
        out.push(f.slug);
    } else if (!same(a.data[f.slug], b.data[f.slug])) out.push(f.slug);
  }
  if (!same(creditsBody(a), creditsBody(b))) out.push('bylines');
  return out;
}

export const creditsBody = (s: FormState) => s.credits.map((x) => ({ bylineId: x.byline.id, roleLabel: x.roleLabel }));

/** A partial update: only what changed since `base` is sent. */
export function updateBody(c: CollectionModel, base: FormState, cur: FormState) {
  const keys = changedKeys(c, base, cur);
  const body: {
    data?: Record<string, unknown>;
    slug?: string | null;
    references?: Record<string, string[]>;
    bylines?: Array<{ bylineId: string; roleLabel?: string | null }>;
  } = {};
  for (const k of keys) {
    if (k === 'slug') body.slug = cur.slug.trim() || null;
    else if (k === 'bylines') body.bylines = creditsBody(cur);
    else {
      const f = c.fields.find((x) => x.slug === k);
      if (f && isRelationField(f)) body.references = { ...body.references, [k]: (cur.refs[k] ?? []).map((x) => x.id) };
      else body.data = { ...body.data, [k]: cur.data[k] };
    }
  }
  return { keys, body };
}

/** Everything for a create. */
export function createBody(c: CollectionModel, cur: FormState) {
  const references: Record<string, string[]> = {};
  for (const f of c.fields)
    if (isRelationField(f) && cur.refs[f.slug]?.length) references[f.slug] = cur.refs[f.slug].map((x) => x.id);
  return {
    data: cur.data,
    ...(cur.slug.trim() ? { slug: cur.slug.trim() } : {}),
    ...(Object.keys(references).length ? { references } : {}),
    ...(cur.credits.length ? { bylines: creditsBody(cur) } : {}),
  };
}
