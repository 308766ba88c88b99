import { isDeepStrictEqual } from 'node:util';
import type { Target } from '../target/types.js';
import type { BlockTypeDoc, FieldDoc } from './document.js';
import { withDefaults } from './field-diff.js';
import type { Plan } from './plan.js';

/**
 * Block types in a plan. A missing one is created with every version of the
 * document, numbered alike; an existing one is brought to the document's
 * active fields (activating a stored version that has them, else adding a
 * version). Block types are never deleted: the API has no such operation.
 */
export function blockTypeSteps(desired: BlockTypeDoc[], current: BlockTypeDoc[], exact: boolean, plan: Plan): void {
  const have = new Map(current.map((b) => [b.slug, b]));
  const activeOf = (b: BlockTypeDoc) =>
    b.versions.find((v) => v.version === (b.activeVersion ?? b.versions.length)) ?? b.versions[b.versions.length - 1];
  const sameFields = (a: FieldDoc[], b: FieldDoc[]) => isDeepStrictEqual(a.map(withDefaults), b.map(withDefaults));
  for (const b of desired) {
    const existing = have.get(b.slug);
    if (!existing) {
      plan.steps.push({
        text: `+ block type ${b.slug} (${b.versions.length} version${b.versions.length === 1 ? '' : 's'})`,
        destructive: false,
        adds: 'blockType',
        run: ({ target }) => replayBlockType(target, b, sameFields),
      });
      continue;
    }
    if (!exact) continue;
    const want = activeOf(b);
    const got = activeOf(existing);
    const changes: string[] = [];
    const props: Record<string, unknown> = {};
    for (const key of ['label', 'description', 'icon'] as const) {
      if (b[key] !== undefined && !isDeepStrictEqual(b[key], existing[key])) {
        changes.push(`${key} ${JSON.stringify(existing[key])} → ${JSON.stringify(b[key])}`);
        props[key] = b[key];
      }
    }
    const fieldsDiffer = !sameFields(want.fields, got.fields);
    const stored = fieldsDiffer ? existing.versions.find((v) => sameFields(v.fields, want.fields)) : undefined;
    if (fieldsDiffer) changes.push(stored ? `activate its version ${stored.version}` : 'fields (a new version)');
    if (!changes.length) continue;
    plan.steps.push({
      text: `~ block type ${b.slug}: ${changes.join(', ')}`,
      destructive: false,
      async run({ target }) {
        if (stored) await target.schema.activateBlockTypeVersion(b.slug, stored.version);
        const fields = fieldsDiffer && !stored ? { fields: want.fields as never } : {};
        if (Object.keys(props).length || fields.fields)
          await target.schema.updateBlockType(b.slug, { ...props, ...fields });
      },
    });
  }
  const listed = new Set(desired.map((b) => b.slug));
  for (const b of current) {
    if (exact && !listed.has(b.slug)) plan.notes.push(`block type ${b.slug} is kept: block types cannot be deleted`);
  }
}

/** Create a block type with every version of the document, numbered alike, then its active version. */
async function replayBlockType(
  target: Target,
  b: BlockTypeDoc,
  sameFields: (a: FieldDoc[], b: FieldDoc[]) => boolean,
): Promise<void> {
  const [first, ...later] = b.versions;
  await target.schema.createBlockType({
    slug: b.slug,
    label: first.label,
    description: b.description ?? null,
    icon: b.icon ?? null,
    fields: first.fields as never,
  });
  let active = first;
  for (const v of later) {
    // A new version is stored only when its fields differ from the active one's.
    if (sameFields(v.fields, active.fields)) {
      const other = b.versions.find((o) => o.version < v.version && !sameFields(o.fields, v.fields));
      if (other) await target.schema.activateBlockTypeVersion(b.slug, other.version);
    }
    await target.schema.updateBlockType(b.slug, { label: v.label, fields: v.fields as never });
    active = v;
  }
  const last = b.versions[b.versions.length - 1];
  const activeVersion = b.activeVersion ?? last.version;
  if (activeVersion !== last.version) await target.schema.activateBlockTypeVersion(b.slug, activeVersion);
  if (b.label !== last.label) await target.schema.updateBlockType(b.slug, { label: b.label });
}
