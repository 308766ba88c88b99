import { isDeepStrictEqual } from 'node:util';
import type { FieldInput, FieldUpdate } from '../target/types.js';
import { type FieldDoc, relationRole, validationOf } from './document.js';

/**
 * Comparing a field of the document with the same field on the target, and
 * the bodies that create or change it. Relation ends are compared by what
 * they are bound to (the parent field), not by the relation's name, which
 * differs when a site renamed the parent field.
 */

/** The documented defaults of the common properties (as the server fills them). */
export function withDefaults(f: FieldDoc): FieldDoc {
  return {
    required: false,
    unique: false,
    searchable: false,
    indexed: false,
    translatable: true,
    ...f,
  };
}

/** relation name → `collection.field` of the parent end, for one document. */
export type ParentIndex = Map<string, string>;

function comparable(f: FieldDoc, parents: ParentIndex): Record<string, unknown> {
  const v: Record<string, unknown> = { ...validationOf(f) };
  const role = relationRole(f);
  if (role === 'parent') delete v.relation;
  if (role === 'child') v.relation = parents.get(String(v.relation)) ?? v.relation;
  // Server-managed: follows allowedTypes on every update.
  if (f.type === 'blocks') delete v.retiredTypes;
  const out: Record<string, unknown> = { ...withDefaults(f) };
  delete out.validation;
  if (Object.keys(v).length) out.validation = v;
  return out;
}

export type FieldChange =
  | { kind: 'same' }
  | { kind: 'replace'; reason: string }
  | { kind: 'update'; changes: string[]; body: FieldUpdate };

const show = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value));

export function compareField(
  desired: FieldDoc,
  current: FieldDoc,
  parents: { desired: ParentIndex; current: ParentIndex },
): FieldChange {
  if (desired.type !== current.type) {
    return { kind: 'replace', reason: `type ${current.type} → ${desired.type} (a field's type cannot change)` };
  }
  const want = comparable(desired, parents.desired);
  const have = comparable(current, parents.current);
  if (isDeepStrictEqual(want, have)) return { kind: 'same' };
  const role = relationRole(desired);
  if (role !== relationRole(current)) return { kind: 'replace', reason: 'it becomes another kind of reference' };
  const wv = (want.validation ?? {}) as Record<string, unknown>;
  const hv = (have.validation ?? {}) as Record<string, unknown>;
  if (role !== null) {
    for (const key of ['targetCollection', 'relation', 'relationSide']) {
      if (!isDeepStrictEqual(wv[key], hv[key])) {
        return {
          kind: 'replace',
          reason: `validation.${key} ${show(hv[key])} → ${show(wv[key])} (fixed once created)`,
        };
      }
    }
  }
  const changes: string[] = [];
  const body: FieldUpdate = {};
  const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
  for (const key of keys) {
    if (key === 'slug' || key === 'type' || isDeepStrictEqual(want[key], have[key])) continue;
    if (key === 'validation') {
      changes.push('validation');
      if (role === 'parent')
        body.validation = { targetCollection: wv.targetCollection, multiple: wv.multiple === true };
      else if (role === null) body.validation = wv;
      continue;
    }
    changes.push(`${key} ${show(have[key])} → ${show(want[key])}`);
    // null clears a property the document leaves out.
    (body as Record<string, unknown>)[key] = want[key] === undefined ? null : want[key];
  }
  return { kind: 'update', changes, body };
}

/**
 * Body of createField / a collection's field list. A parent end is created
 * from targetCollection (the relation gets its name from the field); a
 * child end binds to the relation the parent made on this target.
 */
export function createBody(f: FieldDoc, relationOnTarget: (name: string) => string): FieldInput {
  const role = relationRole(f);
  if (role === null) return f as FieldInput;
  const v = { ...validationOf(f) };
  if (role === 'parent') {
    delete v.relation;
    delete v.relationSide;
  } else {
    v.relation = relationOnTarget(String(v.relation));
    delete v.targetCollection;
    delete v.multiple;
  }
  return { ...f, validation: v } as FieldInput;
}

/**
 * retiredTypes cannot be sent: the server computes them from the types a
 * blocks field used to allow. A field that has some is created allowing
 * them too, then narrowed (see needsNarrowing).
 */
export function blocksCreateBody(f: FieldDoc): FieldInput {
  const v = { ...validationOf(f) };
  const retired = (v.retiredTypes as string[] | undefined) ?? [];
  delete v.retiredTypes;
  if (retired.length) v.allowedTypes = [...((v.allowedTypes as string[]) ?? []), ...retired];
  return { ...f, validation: v } as FieldInput;
}

export function needsNarrowing(f: FieldDoc): boolean {
  return f.type === 'blocks' && ((validationOf(f).retiredTypes as unknown[] | undefined)?.length ?? 0) > 0;
}

export function narrowBody(f: FieldDoc): FieldUpdate {
  const v = { ...validationOf(f) };
  delete v.retiredTypes;
  return { validation: v };
}

/** Relation ends are created once every collection exists (parents first, then the children bound to them). */
export const isDeferred = (f: FieldDoc) => relationRole(f) !== null;

/** What to send to create a field. */
export function initialBody(f: FieldDoc, relationOnTarget: (name: string) => string): FieldInput {
  if (f.type === 'blocks') return blocksCreateBody(f);
  return createBody(f, relationOnTarget);
}
