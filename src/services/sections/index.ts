import { sql } from 'kysely';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { SectionsTable } from '../../db/tables-structure.js';
import { checkSlug, slugify } from '../content/slugs.js';
import type { ServiceContext } from '../context.js';
import { checkPortableText } from '../rich-text.js';

export interface SectionView {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  /** Portable Text blocks (left out of list items). */
  content?: unknown[];
  blockCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface SectionInput {
  slug?: string;
  title: string;
  description?: string | null;
  content?: unknown;
}

export type SectionUpdate = Partial<SectionInput>;

function view(row: SectionsTable, withContent: boolean): SectionView {
  const content = JSON.parse(row.content) as unknown[];
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    ...(withContent ? { content } : {}),
    blockCount: content.length,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Sections: reusable blocks of Portable Text (a newsletter sign-up, a disclaimer …) addressed by slug. */
export function createSectionService(ctx: ServiceContext) {
  const { db } = ctx;

  async function load(conn: Kdb, slug: string): Promise<SectionsTable> {
    const row = await conn.selectFrom('_cms_sections').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!row) throw notFound(`Section "${slug}"`);
    return row;
  }

  const taken = (slug: string) =>
    new CmsError('ALREADY_EXISTS', `A section with slug "${slug}" already exists`, {
      issues: [{ path: ['slug'], code: 'taken', message: 'already used by another section' }],
    });

  async function free(slug: string, exceptId?: string): Promise<boolean> {
    let q = db.selectFrom('_cms_sections').select('id').where('slug', '=', slug);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return !(await q.executeTakeFirst());
  }

  async function list(
    actor: Actor,
    opts: { search?: string; cursor?: string; limit?: number },
  ): Promise<{ items: SectionView[]; nextCursor?: string }> {
    requirePermission(actor, 'content:read');
    const limit = opts.limit ?? 50;
    let q = db.selectFrom('_cms_sections').selectAll();
    if (opts.search) {
      const pattern = `%${escapeLike(opts.search.toLowerCase())}%`;
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(slug)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    if (opts.cursor) q = q.where('slug', '>', decodeCursor(opts.cursor, [cursorText])[0]);
    const rows = await q
      .orderBy('slug')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return {
      items: page.map((r) => view(r, false)),
      ...(rows.length > limit ? { nextCursor: encodeCursor([page[page.length - 1].slug]) } : {}),
    };
  }

  async function get(actor: Actor, slug: string): Promise<SectionView> {
    requirePermission(actor, 'content:read');
    return view(await load(db, slug), true);
  }

  async function create(actor: Actor, input: SectionInput): Promise<SectionView> {
    requirePermission(actor, 'sections:manage');
    const content = checkPortableText(input.content ?? [], ['content']);
    let slug: string;
    if (input.slug) {
      slug = checkSlug(input.slug);
      if (!(await free(slug))) throw taken(slug);
    } else {
      const root = slugify(input.title) || 'section';
      slug = root;
      for (let n = 2; !(await free(slug)); n++)
        slug = n > 100 ? `${root}-${newId().slice(-6).toLowerCase()}` : `${root}-${n}`;
    }
    const at = isoNow(ctx.clock);
    const row: SectionsTable = {
      id: newId(),
      slug,
      title: input.title,
      description: input.description ?? null,
      content: JSON.stringify(content),
      created_at: at,
      updated_at: at,
    };
    try {
      await db.insertInto('_cms_sections').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(slug);
      throw err;
    }
    return view(row, true);
  }

  async function update(actor: Actor, slug: string, input: SectionUpdate): Promise<SectionView> {
    requirePermission(actor, 'sections:manage');
    const row = await load(db, slug);
    const patch: Partial<SectionsTable> = {};
    if (input.slug !== undefined && input.slug !== row.slug) {
      patch.slug = checkSlug(input.slug);
      if (!(await free(patch.slug, row.id))) throw taken(patch.slug);
    }
    if (input.title !== undefined) patch.title = input.title;
    if (input.description !== undefined) patch.description = input.description;
    if (input.content !== undefined) patch.content = JSON.stringify(checkPortableText(input.content, ['content']));
    if (Object.keys(patch).length) {
      try {
        await db
          .updateTable('_cms_sections')
          .set({ ...patch, updated_at: isoNow(ctx.clock) })
          .where('id', '=', row.id)
          .execute();
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(patch.slug ?? slug);
        throw err;
      }
    }
    return view(await load(db, patch.slug ?? row.slug), true);
  }

  /** Widgets that show the section keep their settings and report it missing until pointed elsewhere. */
  async function remove(actor: Actor, slug: string): Promise<{ deleted: true; slug: string }> {
    requirePermission(actor, 'sections:manage');
    const row = await load(db, slug);
    await db.deleteFrom('_cms_sections').where('id', '=', row.id).execute();
    return { deleted: true, slug };
  }

  return { list, get, create, update, remove };
}

export type SectionService = ReturnType<typeof createSectionService>;
