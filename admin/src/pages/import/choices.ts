import type { Analysis, ExecuteConfig, PostTypeAnalysis, PreparePostType } from '../../api/import';

/** What the person chose on the review step; turned into the prepare body and the execute config. */
export interface Choices {
  /** `enableComments`: have prepare turn comments on for the collection (offered when the review warns). */
  types: Record<string, { include: boolean; collection: string; enableComments: boolean }>;
  /** Author login → user ID, or '' for a guest byline. */
  authors: Record<string, string>;
  /** Custom-field keys to add as fields. */
  customFields: string[];
  skipExisting: boolean;
  importSections: boolean;
  locale: string;
}

/** The collection slug rule of the import schemas (src/schemas/import.ts). */
export const SLUG = /^[a-z][a-z0-9_]{0,62}$/;

export function initialChoices(a: Analysis, locale: string): Choices {
  return {
    // An incompatible mapping is refused by execute: it starts excluded, the person may point it elsewhere.
    types: Object.fromEntries(
      a.postTypes.map((t) => [
        t.name,
        { include: t.review.state !== 'Incompatible', collection: t.collection, enableComments: false },
      ]),
    ),
    authors: Object.fromEntries(a.authors.map((au) => [au.login, ''])),
    customFields: [],
    skipExisting: false,
    importSections: true,
    locale,
  };
}

const included = (a: Analysis, c: Choices): PostTypeAnalysis[] => a.postTypes.filter((t) => c.types[t.name]?.include);

/** Slug problems by post type (inline errors); empty when every included target is a valid slug. */
export function slugErrors(a: Analysis, c: Choices): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of included(a, c)) {
    if (!SLUG.test(c.types[t.name].collection)) {
      out[t.name] = 'Use a lowercase letter first, then a-z, 0-9 or _ (at most 63).';
    }
  }
  return out;
}

/**
 * The schema changes the choices need: the review state is for the suggested
 * collection, so a changed target is checked by prepare (which is additive and
 * changes nothing when all is there).
 */
export function prepareBody(a: Analysis, c: Choices): PreparePostType[] {
  return included(a, c).map((t) => {
    const extra = a.customFields
      .filter((f) => c.customFields.includes(f.key) && f.postTypes.includes(t.name))
      .map((f) => ({ slug: f.field.slug, label: f.field.label, type: f.field.type, required: false }));
    const fields = [...t.fields];
    for (const f of extra) if (!fields.some((x) => x.slug === f.slug)) fields.push({ ...f, searchable: false });
    const enableComments = wantsComments(t, c);
    return {
      name: t.name,
      collection: c.types[t.name].collection,
      fields,
      ...(enableComments ? { enableComments } : {}),
    };
  });
}

/** The review warns that the suggested collection skips comments: how many, or 0. */
export function commentsSkipped(t: PostTypeAnalysis): number {
  return t.review.warnings.find((w) => w.code === 'comments_disabled')?.count ?? 0;
}

/** The person chose to turn comments on for the type's (suggested) collection. */
const wantsComments = (t: PostTypeAnalysis, c: Choices) =>
  commentsSkipped(t) > 0 && c.types[t.name].enableComments && c.types[t.name].collection === t.collection;

export function needsPrepare(a: Analysis, c: Choices): boolean {
  return included(a, c).some(
    (t) =>
      t.review.state !== 'Ready' ||
      c.types[t.name].collection !== t.collection ||
      wantsComments(t, c) ||
      a.customFields.some((f) => c.customFields.includes(f.key) && f.postTypes.includes(t.name)),
  );
}

export function executeConfig(a: Analysis, c: Choices): ExecuteConfig {
  const authorMappings: Record<string, string | null> = {};
  for (const [login, userId] of Object.entries(c.authors)) authorMappings[login] = userId || null;
  return {
    postTypeMappings: Object.fromEntries(
      a.postTypes.map((t) => [t.name, c.types[t.name]?.include ? c.types[t.name].collection : null]),
    ),
    skipExisting: c.skipExisting,
    authorMappings,
    importSections: c.importSections,
    locale: c.locale || undefined,
  };
}

export const includedCount = (a: Analysis, c: Choices) => included(a, c).length;
