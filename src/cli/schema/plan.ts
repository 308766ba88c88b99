import { isDeepStrictEqual } from 'node:util';
import type { Target } from '../target/types.js';
import { blockTypeSteps } from './block-type-steps.js';
import {
  type CollectionDoc,
  type FieldDoc,
  relationNames,
  relationRole,
  type SchemaDocument,
  validationOf,
} from './document.js';
import { compareField, initialBody, isDeferred, narrowBody, needsNarrowing } from './field-diff.js';

/**
 * The changes that turn the target's schema into the document's, in the
 * order they can run: block types; deletions; new collections (their plain
 * fields inline); changed collections and fields; new fields; relation
 * ends once every collection exists (parents, then children); positions.
 *
 * `exact` (schema apply) also changes and deletes what differs; `additive`
 * (seed files) only creates what is missing and never touches the rest.
 */
export interface Step {
  /** One line of the plan, e.g. `+ collection posts (4 fields)`. */
  text: string;
  destructive: boolean;
  /** What the step adds, for summaries: a block type, a collection, or a field of an existing collection. */
  adds?: 'blockType' | 'collection' | 'field';
  run(ctx: ApplyContext): Promise<void>;
}

export interface ApplyContext {
  target: Target;
  /** Relation names of the document → names on the target (a relation is named after its parent field). */
  relations: Map<string, string>;
}

export interface Plan {
  steps: Step[];
  /** Things the plan leaves as they are, and why. */
  notes: string[];
}

const relationOnTarget = (ctx: ApplyContext) => (name: string) => ctx.relations.get(name) ?? name;

/**
 * A parent end renamed after it was created keeps its relation's first
 * name, `<collection>_<first slug>`: it is created under that slug and
 * renamed, so the relation comes out with the same name.
 */
function firstSlug(collection: string, f: FieldDoc, taken: ReadonlySet<string>): string {
  const relation = validationOf(f).relation;
  if (relationRole(f) !== 'parent' || typeof relation !== 'string' || !relation.startsWith(`${collection}_`))
    return f.slug;
  const slug = relation.slice(collection.length + 1);
  return /^[a-z][a-z0-9_]*$/.test(slug) && slug.length <= 63 && !taken.has(slug) ? slug : f.slug;
}

async function createField(ctx: ApplyContext, collection: string, f: FieldDoc, taken: ReadonlySet<string>) {
  const slug = firstSlug(collection, f, taken);
  const made = await ctx.target.schema.createField(collection, { ...initialBody(f, relationOnTarget(ctx)), slug });
  if (slug !== f.slug) await ctx.target.schema.updateField(collection, slug, { slug: f.slug });
  rememberRelation(ctx, f, made.validation);
  if (needsNarrowing(f)) await ctx.target.schema.updateField(collection, f.slug, narrowBody(f));
}

function rememberRelation(ctx: ApplyContext, f: FieldDoc, made: Record<string, unknown> | undefined): void {
  const wanted = validationOf(f).relation;
  if (relationRole(f) === 'parent' && typeof wanted === 'string' && typeof made?.relation === 'string') {
    ctx.relations.set(wanted, made.relation);
  }
}

/** Relation ends in the order they are created: parents, then children. */
const deferredOrder = (fields: FieldDoc[]) =>
  [...fields.filter((f) => relationRole(f) === 'parent'), ...fields.filter((f) => relationRole(f) === 'child')].map(
    (f) => f.slug,
  );

const fieldCount = (n: number) => `${n} field${n === 1 ? '' : 's'}`;

export function planSchema(desired: SchemaDocument, current: SchemaDocument, mode: 'exact' | 'additive'): Plan {
  const exact = mode === 'exact';
  const plan: Plan = { steps: [], notes: [] };
  const parents = { desired: relationNames(desired), current: relationNames(current) };
  const have = new Map(current.collections.map((c) => [c.slug, c]));
  const want = new Set(desired.collections.map((c) => c.slug));

  blockTypeSteps(desired.blockTypes, current.blockTypes, exact, plan);

  if (exact) {
    for (const c of current.collections) {
      if (!want.has(c.slug)) {
        plan.steps.push({
          text: `- collection ${c.slug} and all of its entries (cannot be undone)`,
          destructive: true,
          run: ({ target }) => target.schema.deleteCollection(c.slug),
        });
      }
    }
  }

  const deferred: Array<{ collection: string; field: FieldDoc; taken: ReadonlySet<string> }> = [];
  const later: Step[] = [];
  // The order each collection's fields will have after the steps, to decide whether a reorder is needed.
  const finalOrder = new Map<string, string[]>();

  for (const c of desired.collections) {
    const existing = have.get(c.slug);
    if (!existing) {
      const inline = c.fields.filter((f) => !isDeferred(f));
      const taken = new Set(c.fields.map((f) => f.slug));
      for (const f of c.fields) if (isDeferred(f)) deferred.push({ collection: c.slug, field: f, taken });
      finalOrder.set(c.slug, [...inline.map((f) => f.slug), ...deferredOrder(c.fields)]);
      plan.steps.push({
        text: `+ collection ${c.slug} (${fieldCount(c.fields.length)})`,
        destructive: false,
        adds: 'collection',
        async run(ctx) {
          const { fields: _all, ...props } = c;
          await ctx.target.schema.createCollection({
            ...props,
            fields: inline.map((f) => initialBody(f, relationOnTarget(ctx))),
          } as never);
          for (const f of inline)
            if (needsNarrowing(f)) await ctx.target.schema.updateField(c.slug, f.slug, narrowBody(f));
        },
      });
      continue;
    }
    fieldSteps(c, existing, exact, parents, plan, later, deferred, finalOrder);
  }

  plan.steps.push(...later);
  // Parents before children: a child binds to the relation its parent creates.
  deferred.sort((a, b) => (relationRole(a.field) === 'parent' ? 0 : 1) - (relationRole(b.field) === 'parent' ? 0 : 1));
  for (const { collection, field, taken } of deferred) {
    plan.steps.push({
      text: `+ field ${collection}.${field.slug} (${field.type}, ${relationRole(field)} end of a relation)`,
      destructive: false,
      ...(have.has(collection) ? { adds: 'field' as const } : {}),
      run: (ctx) => createField(ctx, collection, field, taken),
    });
  }

  if (exact) {
    for (const c of desired.collections) {
      const wanted = c.fields.map((f) => f.slug);
      if (!isDeepStrictEqual(finalOrder.get(c.slug), wanted)) {
        plan.steps.push({
          text: `↕ fields of ${c.slug}: ${wanted.join(', ')}`,
          destructive: false,
          run: ({ target }) => target.schema.reorderFields(c.slug, wanted),
        });
      }
    }
    const order = [
      ...current.collections.map((c) => c.slug).filter((s) => want.has(s)),
      ...desired.collections.map((c) => c.slug).filter((s) => !have.has(s)),
    ];
    const wantedOrder = desired.collections.map((c) => c.slug);
    if (!isDeepStrictEqual(order, wantedOrder)) {
      plan.steps.push({
        text: `↕ collections: ${wantedOrder.join(', ')}`,
        destructive: false,
        run: ({ target }) => target.schema.reorderCollections(wantedOrder),
      });
    }
  }
  return plan;
}

function fieldSteps(
  c: CollectionDoc,
  existing: CollectionDoc,
  exact: boolean,
  parents: { desired: Map<string, string>; current: Map<string, string> },
  plan: Plan,
  later: Step[],
  deferred: Array<{ collection: string; field: FieldDoc; taken: ReadonlySet<string> }>,
  finalOrder: Map<string, string[]>,
): void {
  if (exact) {
    const changes: string[] = [];
    const body: Record<string, unknown> = {};
    const props = new Set([...Object.keys(c), ...Object.keys(existing)].filter((k) => k !== 'slug' && k !== 'fields'));
    for (const key of props) {
      // A property the document leaves out is left as it is.
      if (c[key] !== undefined && !isDeepStrictEqual(c[key], existing[key])) {
        changes.push(`${key} ${JSON.stringify(existing[key])} → ${JSON.stringify(c[key])}`);
        body[key] = c[key];
      }
    }
    if (changes.length) {
      later.push({
        text: `~ collection ${c.slug}: ${changes.join(', ')}`,
        destructive: false,
        run: ({ target }) => target.schema.updateCollection(c.slug, body).then(() => undefined),
      });
    }
  }
  const current = new Map(existing.fields.map((f) => [f.slug, f]));
  const listed = new Set(c.fields.map((f) => f.slug));
  const kept = new Set<string>();
  if (exact) {
    for (const f of existing.fields) {
      if (!listed.has(f.slug)) {
        plan.steps.push({
          text: `- field ${c.slug}.${f.slug} (${f.type}) and its stored values (cannot be undone)`,
          destructive: true,
          run: ({ target }) => target.schema.deleteField(c.slug, f.slug),
        });
      }
    }
  }
  const created: FieldDoc[] = [];
  const taken = new Set([...c.fields.map((f) => f.slug), ...existing.fields.map((f) => f.slug)]);
  for (const f of c.fields) {
    const had = current.get(f.slug);
    if (!had) {
      created.push(f);
      continue;
    }
    if (!exact) {
      kept.add(f.slug);
      continue;
    }
    const change = compareField(f, had, parents);
    if (change.kind === 'same') kept.add(f.slug);
    else if (change.kind === 'update') {
      kept.add(f.slug);
      later.push({
        text: `~ field ${c.slug}.${f.slug}: ${change.changes.join(', ')}`,
        destructive: false,
        run: ({ target }) => target.schema.updateField(c.slug, f.slug, change.body).then(() => undefined),
      });
    } else {
      plan.steps.push({
        text: `- field ${c.slug}.${f.slug} to add it again: ${change.reason}; its stored values are lost`,
        destructive: true,
        run: ({ target }) => target.schema.deleteField(c.slug, f.slug),
      });
      created.push(f);
    }
  }
  for (const f of created) {
    if (isDeferred(f)) deferred.push({ collection: c.slug, field: f, taken });
    else {
      later.push({
        text: `+ field ${c.slug}.${f.slug} (${f.type})`,
        destructive: false,
        adds: 'field',
        run: (ctx) => createField(ctx, c.slug, f, taken),
      });
    }
  }
  finalOrder.set(c.slug, [
    ...existing.fields.filter((f) => kept.has(f.slug)).map((f) => f.slug),
    ...created.filter((f) => !isDeferred(f)).map((f) => f.slug),
    ...deferredOrder(created),
  ]);
}
