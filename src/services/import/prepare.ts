import type { Actor } from '../../auth/actor.js';
import { isCmsError } from '../../core/errors.js';
import type { FieldType } from '../fields/types.js';
import type { SchemaService } from '../schema/index.js';
import type { Support } from '../schema/model.js';
import { reviewExisting } from './post-types.js';

/**
 * The prepare stage: additive schema changes for the chosen mappings. A
 * missing collection is created with its fields; a missing field is added to
 * an existing collection; an existing field is never changed, so a mapping
 * whose field exists with another type is refused (Incompatible) and that
 * collection is left as it was. Asked to (`enableComments`), an existing
 * collection that does not accept comments gets them turned on, so the
 * import does not skip them.
 */

export interface PrepareField {
  slug: string;
  label: string;
  type: FieldType;
  required?: boolean;
  searchable?: boolean;
}

export interface PreparePostType {
  name: string;
  collection: string;
  fields: PrepareField[];
  /** An existing collection without comments gets them turned on (a new one always has them). */
  enableComments?: boolean;
}

export interface PrepareResult {
  success: boolean;
  collectionsCreated: string[];
  fieldsCreated: Array<{ collection: string; field: string }>;
  /** Existing collections whose comments were turned on (`enableComments`). */
  commentsEnabled: string[];
  errors: Array<{ postType: string; collection: string; code: string; message: string }>;
}

/** What an imported collection supports: drafts and revisions like the starter blog, plus search, SEO and comments. */
const IMPORT_SUPPORTS: Support[] = ['drafts', 'revisions', 'editLock', 'search', 'seo', 'comments'];

function label(slug: string): { label: string; singular: string } {
  const words = slug.replace(/_/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return { label: title, singular: title.endsWith('s') ? title.slice(0, -1) : title };
}

const fieldInput = (f: PrepareField) => ({
  slug: f.slug,
  label: f.label,
  type: f.type,
  required: f.required ?? false,
  searchable: f.searchable ?? false,
});

export async function prepareSchema(
  actor: Actor,
  schema: SchemaService,
  postTypes: PreparePostType[],
): Promise<PrepareResult> {
  const out: PrepareResult = {
    success: true,
    collectionsCreated: [],
    fieldsCreated: [],
    commentsEnabled: [],
    errors: [],
  };
  // One collection can receive several post types: merge their fields, first definition wins.
  const byCollection = new Map<string, { names: string[]; fields: PrepareField[]; enableComments: boolean }>();
  for (const pt of postTypes) {
    const entry = byCollection.get(pt.collection) ?? { names: [], fields: [], enableComments: false };
    entry.names.push(pt.name);
    if (pt.enableComments) entry.enableComments = true;
    for (const f of pt.fields) if (!entry.fields.some((x) => x.slug === f.slug)) entry.fields.push(f);
    byCollection.set(pt.collection, entry);
  }
  for (const [collection, { names, fields, enableComments }] of byCollection) {
    const postType = names.join(', ');
    const fail = (code: string, message: string) => {
      out.success = false;
      out.errors.push({ postType, collection, code, message });
    };
    const snap = await schema.snapshot();
    const existing = snap.collections.get(collection);
    try {
      if (!existing) {
        const l = label(collection);
        const searchable = fields.map((f) => ({ ...fieldInput(f), searchable: f.searchable ?? false }));
        await schema.collections.create(actor, {
          slug: collection,
          label: l.label,
          labelSingular: l.singular,
          supports: IMPORT_SUPPORTS,
          fields: searchable,
        });
        out.collectionsCreated.push(collection);
        for (const f of fields) out.fieldsCreated.push({ collection, field: f.slug });
        continue;
      }
      const rv = reviewExisting(
        existing,
        fields.map((f) => ({ ...f, required: f.required ?? false, searchable: f.searchable ?? false })),
      );
      if (rv.state === 'Incompatible') {
        fail('INCOMPATIBLE', rv.reason as string);
        continue;
      }
      for (const slug of rv.missingFields) {
        const f = fields.find((x) => x.slug === slug) as PrepareField;
        // A required field added to a collection that already has entries would make them invalid: add it optional.
        await schema.fields.create(actor, collection, { ...fieldInput(f), required: false });
        out.fieldsCreated.push({ collection, field: slug });
      }
      if (enableComments && !existing.supports.includes('comments')) {
        // The same call as the collection settings' "Comments" switch.
        await schema.collections.update(actor, collection, { supports: [...existing.supports, 'comments'] });
        out.commentsEnabled.push(collection);
      }
    } catch (err) {
      if (!isCmsError(err)) throw err;
      fail(err.code, err.message);
    }
  }
  return out;
}
