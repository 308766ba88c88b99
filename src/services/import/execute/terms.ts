import { isCmsError, issuesError, schemaIssues } from '../../../core/errors.js';
import { TermCreateBody } from '../../../schemas/taxonomies.js';
import { decodeTermSlug, INTERNAL_TAXONOMIES, sourceTermKey, taxonomyName } from '../post-types.js';
import type { WxrTerm } from '../wxr/model.js';
import type { ImportDeps, RunScope } from './deps.js';
import type { Tally } from './tally.js';

export interface TermRef {
  taxonomy: string;
  group: string;
}

/** Hierarchical WordPress taxonomies whose parent links are kept. */
const HIERARCHICAL = new Set(['category']);

/**
 * Categories, tags and custom taxonomies. The channel's terms are created
 * parents first (existing terms are matched by slug and reused, never
 * changed); a term an item names that the channel did not declare is created
 * when first met. A taxonomy that does not yet apply to a target collection
 * is extended to it (additive), so the assignment is allowed.
 */
export class Terms {
  private readonly declared: WxrTerm[] = [];
  /** sourceTermKey → term (a term listed twice, or under two spellings of its slug, is one term). */
  private readonly known = new Map<string, TermRef | null>();
  /** `${wpTaxonomy}\0${termId}` → sourceTermKey (menu items name terms by ID). */
  private readonly ids = new Map<string, string>();
  private readonly taxonomies = new Map<string, { collections: string[] } | null>();
  private setUp = false;

  constructor(
    private readonly deps: ImportDeps,
    private readonly scope: RunScope,
    private readonly tally: Tally,
  ) {}

  declare(term: WxrTerm): void {
    if (!INTERNAL_TAXONOMIES.has(term.taxonomy) && term.taxonomy) {
      this.declared.push(term);
      if (term.id) this.ids.set(`${term.taxonomy}\0${term.id}`, sourceTermKey(term.taxonomy, term.slug));
    }
  }

  /** A declared term by its source ID (after setup). */
  byId(wpTaxonomy: string, id: string): TermRef | null {
    const key = this.ids.get(`${wpTaxonomy}\0${id}`);
    return key ? (this.known.get(key) ?? null) : null;
  }

  private stats(name: string) {
    this.tally.result.taxonomies[name] ??= { created: 0, existing: 0, failed: 0, assignments: 0, errors: [] };
    return this.tally.result.taxonomies[name];
  }

  /** Create the declared terms, parents before children (runs once, before the first item). */
  async setup(): Promise<void> {
    if (this.setUp) return;
    this.setUp = true;
    const bySlug = new Map(this.declared.map((t) => [sourceTermKey(t.taxonomy, t.slug), t]));
    const visiting = new Set<string>();
    const ensure = async (t: WxrTerm): Promise<TermRef | null> => {
      const key = sourceTermKey(t.taxonomy, t.slug);
      if (this.known.has(key)) return this.known.get(key) ?? null;
      let parent: TermRef | null = null;
      if (t.parent && HIERARCHICAL.has(t.taxonomy) && !visiting.has(key)) {
        visiting.add(key);
        const p = bySlug.get(sourceTermKey(t.taxonomy, t.parent));
        if (p) parent = await ensure(p);
      }
      return this.create(t.taxonomy, t.slug, t.name, t.description, parent);
    };
    for (const t of this.declared) await ensure(t);
    this.declared.length = 0;
  }

  async ref(wpTaxonomy: string, slug: string, name: string): Promise<TermRef | null> {
    if (INTERNAL_TAXONOMIES.has(wpTaxonomy) || !slug) return null;
    const key = sourceTermKey(wpTaxonomy, slug);
    if (this.known.has(key)) return this.known.get(key) ?? null;
    return this.create(wpTaxonomy, slug, name, '', null);
  }

  /** Make sure the taxonomy accepts entries of `collection`. */
  async allow(taxonomy: string, collection: string): Promise<boolean> {
    const t = await this.taxonomy(taxonomy);
    if (!t) return false;
    if (t.collections.includes(collection)) return true;
    const collections = [...t.collections, collection];
    await this.deps.taxonomies.update(this.scope.actor, taxonomy, undefined, { collections });
    t.collections = collections;
    return true;
  }

  assigned(taxonomy: string, count: number): void {
    this.stats(taxonomy).assignments += count;
  }

  private async taxonomy(name: string, wpTaxonomy?: string): Promise<{ collections: string[] } | null> {
    if (this.taxonomies.has(name)) return this.taxonomies.get(name) ?? null;
    const row = await this.deps.ctx.db
      .selectFrom('_cms_taxonomies')
      .select('collections')
      .where('name', '=', name)
      .executeTakeFirst();
    let out: { collections: string[] } | null = row ? { collections: JSON.parse(row.collections) as string[] } : null;
    if (!out && wpTaxonomy) {
      const label = wpTaxonomy === 'category' ? 'Categories' : wpTaxonomy === 'post_tag' ? 'Tags' : name;
      await this.deps.taxonomies.create(this.scope.actor, {
        name,
        label,
        labelSingular: wpTaxonomy === 'category' ? 'Category' : wpTaxonomy === 'post_tag' ? 'Tag' : name,
        hierarchical: HIERARCHICAL.has(wpTaxonomy),
        collections: [],
        locale: this.scope.locale,
      });
      out = { collections: [] };
    }
    this.taxonomies.set(name, out);
    return out;
  }

  private async create(
    wpTaxonomy: string,
    rawSlug: string,
    label: string,
    description: string,
    parent: TermRef | null,
  ): Promise<TermRef | null> {
    const key = sourceTermKey(wpTaxonomy, rawSlug);
    const name = taxonomyName(wpTaxonomy);
    const slug = decodeTermSlug(rawSlug);
    const stats = this.stats(name);
    let ref: TermRef | null = null;
    try {
      await this.taxonomy(name, wpTaxonomy);
      const existing = await this.deps.ctx.db
        .selectFrom('_cms_terms')
        .select('translation_group')
        .where('taxonomy', '=', name)
        .where('locale', '=', this.scope.locale)
        .where('slug', '=', slug)
        .executeTakeFirst();
      if (existing) {
        stats.existing++;
        ref = { taxonomy: name, group: existing.translation_group };
      } else {
        const parentId = parent ? await this.termId(parent) : null;
        // The REST write path's rules for a term (label, slug, description); an empty name falls back to the slug.
        const input = TermCreateBody.safeParse({
          label: (label.trim() || slug).slice(0, 200),
          slug,
          description: description || null,
          ...(parentId ? { parentId } : {}),
          locale: this.scope.locale,
        });
        if (!input.success) {
          const issues = schemaIssues(input.error.issues);
          throw issuesError(
            `Invalid term: ${issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
            issues,
          );
        }
        const made = await this.deps.taxonomies.terms.create(this.scope.actor, name, input.data);
        stats.created++;
        ref = { taxonomy: name, group: made.translationGroup };
      }
    } catch (err) {
      if (!isCmsError(err)) throw err;
      // Entries filed under the term are still imported, without it; the report names the term.
      stats.failed++;
      if (stats.errors.length < 20) stats.errors.push(`${slug}: ${err.message}`);
    }
    this.known.set(key, ref);
    return ref;
  }

  private async termId(ref: TermRef): Promise<string | null> {
    const row = await this.deps.ctx.db
      .selectFrom('_cms_terms')
      .select('id')
      .where('translation_group', '=', ref.group)
      .where('locale', '=', this.scope.locale)
      .executeTakeFirst();
    return row?.id ?? null;
  }
}
