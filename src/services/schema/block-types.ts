import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { blockDefinitionIssues, type FieldInput, normalizeFieldInput } from '../fields/definition.js';
import type { FieldDefinition } from '../fields/types.js';
import type { SchemaDeps } from './deps.js';
import type { BlockTypeInfo, SchemaSnapshot } from './model.js';
import { type BlockTypeView, blockTypeView } from './present.js';
import { checkBlockTypeSlug } from './rules.js';

/**
 * Block types are versioned: a stored block names its `_version`, so a
 * version is never edited in place. Changing the fields adds a version.
 */
export interface CreateBlockTypeInput {
  slug: string;
  label: string;
  description?: string | null;
  icon?: string | null;
  fields: FieldInput[];
}

export interface UpdateBlockTypeInput {
  label?: string;
  description?: string | null;
  icon?: string | null;
  /** New field list: stored as a new version. */
  fields?: FieldInput[];
  /** Make the new version active at once (default true). */
  activate?: boolean;
}

function blockTypeOf(snap: SchemaSnapshot, slug: string): BlockTypeInfo {
  const b = snap.blockTypes.get(slug);
  if (!b) throw notFound(`Block type "${slug}"`);
  return b;
}

function checkedFields(input: FieldInput[]): FieldDefinition[] {
  const defs = input.map((f) => normalizeFieldInput(f));
  const issues: ValidationIssue[] = blockDefinitionIssues(defs).map((i) => ({ ...i, path: ['fields', ...i.path] }));
  if (issues.length) throw issuesError('Invalid block type fields', issues);
  return defs;
}

export function blockTypeOps(deps: SchemaDeps) {
  const { ctx } = deps;

  async function list(actor: Actor): Promise<BlockTypeView[]> {
    const snap = await deps.read(actor);
    return [...snap.blockTypes.values()].map(blockTypeView);
  }

  async function get(actor: Actor, slug: string): Promise<BlockTypeView> {
    const snap = await deps.read(actor);
    return blockTypeView(blockTypeOf(snap, slug));
  }

  async function create(actor: Actor, input: CreateBlockTypeInput): Promise<BlockTypeView> {
    checkBlockTypeSlug(input.slug);
    const fields = checkedFields(input.fields);
    await deps.write(actor, async (trx, snap) => {
      if (snap.blockTypes.has(input.slug))
        throw new CmsError('ALREADY_EXISTS', `Block type "${input.slug}" already exists`);
      const now = isoNow(ctx.clock);
      const id = newId();
      await trx
        .insertInto('_cms_block_types')
        .values({
          id,
          slug: input.slug,
          label: input.label.trim(),
          description: input.description ?? null,
          icon: input.icon ?? null,
          active_version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto('_cms_block_type_versions')
        .values({
          block_type_id: id,
          version: 1,
          label: input.label.trim(),
          fields: JSON.stringify(fields),
          created_at: now,
        })
        .execute();
    });
    return get(actor, input.slug);
  }

  async function update(actor: Actor, slug: string, input: UpdateBlockTypeInput): Promise<BlockTypeView> {
    const fields = input.fields ? checkedFields(input.fields) : undefined;
    await deps.write(actor, async (trx, snap) => {
      const b = blockTypeOf(snap, slug);
      const now = isoNow(ctx.clock);
      const patch: Record<string, unknown> = { updated_at: now };
      if (input.label !== undefined) patch.label = input.label.trim();
      if (input.description !== undefined) patch.description = input.description;
      if (input.icon !== undefined) patch.icon = input.icon;
      const active = b.versions.find((v) => v.version === b.activeVersion);
      if (fields && JSON.stringify(fields) !== JSON.stringify(active?.fields)) {
        const version = Math.max(0, ...b.versions.map((v) => v.version)) + 1;
        await trx
          .insertInto('_cms_block_type_versions')
          .values({
            block_type_id: b.id,
            version,
            label: (input.label ?? b.label).trim(),
            fields: JSON.stringify(fields),
            created_at: now,
          })
          .execute();
        if (input.activate !== false) patch.active_version = version;
      }
      await trx.updateTable('_cms_block_types').set(patch).where('id', '=', b.id).execute();
    });
    return get(actor, slug);
  }

  async function activateVersion(actor: Actor, slug: string, version: number): Promise<BlockTypeView> {
    await deps.write(actor, async (trx, snap) => {
      const b = blockTypeOf(snap, slug);
      if (!b.versions.some((v) => v.version === version)) throw notFound(`Version ${version} of block type "${slug}"`);
      await trx
        .updateTable('_cms_block_types')
        .set({ active_version: version, updated_at: isoNow(ctx.clock) })
        .where('id', '=', b.id)
        .execute();
    });
    return get(actor, slug);
  }

  return { list, get, create, update, activateVersion };
}
