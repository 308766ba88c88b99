import { isCmsError } from '../../../core/errors.js';
import { slugify } from '../../content/slugs.js';
import { invalidConfig } from '../errors.js';
import type { WxrAuthor } from '../wxr/model.js';
import type { ImportDeps, RunScope } from './deps.js';
import type { Tally } from './tally.js';

export interface Credit {
  /** The entry's owner: the mapped user, else the importing user. */
  authorId: string;
  /** A guest byline credited on the entry (unmapped authors). */
  bylineId: string | null;
}

/**
 * Authors of the export: a mapped author becomes the entry's owner (author_id);
 * an unmapped one is credited as a guest byline, made once per author and
 * reused on a re-run (matched by slug among guest bylines of the locale).
 */
export class Authors {
  private readonly declared = new Map<string, WxrAuthor>();
  private readonly credits = new Map<string, Credit>();

  constructor(
    private readonly deps: ImportDeps,
    private readonly scope: RunScope,
    private readonly mappings: Record<string, string | null>,
    private readonly tally: Tally,
  ) {}

  /** Every mapped user must exist: checked before anything is written. */
  async checkMappings(): Promise<void> {
    const ids = [...new Set(Object.values(this.mappings).filter((v): v is string => !!v))];
    if (!ids.length) return;
    const found = await this.deps.ctx.db.selectFrom('_cms_users').select('id').where('id', 'in', ids).execute();
    const known = new Set(found.map((r) => r.id));
    for (const [login, id] of Object.entries(this.mappings)) {
      if (id && !known.has(id))
        throw invalidConfig(['authorMappings', login], `No user ${id} (mapped from "${login}")`);
    }
  }

  declare(author: WxrAuthor): void {
    this.declared.set(author.login, author);
  }

  async creditFor(login: string): Promise<Credit> {
    const known = this.credits.get(login);
    if (known) return known;
    const mapped = this.mappings[login];
    let credit: Credit;
    if (mapped) credit = { authorId: mapped, bylineId: null };
    else if (!login) credit = { authorId: this.scope.actor.userId as string, bylineId: null };
    else credit = { authorId: this.scope.actor.userId as string, bylineId: await this.guestByline(login) };
    this.credits.set(login, credit);
    return credit;
  }

  private async guestByline(login: string): Promise<string | null> {
    const a = this.declared.get(login);
    const displayName = (a?.displayName || [a?.firstName, a?.lastName].filter(Boolean).join(' ') || login).trim();
    const slug = slugify(login) || 'author';
    const existing = await this.deps.ctx.db
      .selectFrom('_cms_bylines')
      .select('id')
      .where('slug', '=', slug)
      .where('locale', '=', this.scope.locale)
      .where('user_id', 'is', null)
      .executeTakeFirst();
    if (existing) {
      this.tally.result.bylines.reused++;
      return existing.id;
    }
    try {
      const made = await this.deps.content.bylines.create(this.scope.actor, {
        displayName: displayName.slice(0, 200),
        slug,
        locale: this.scope.locale,
      });
      this.tally.result.bylines.created++;
      return made.id;
    } catch (err) {
      // A byline that cannot be made (e.g. its slug is a linked user's) leaves the entry uncredited, not unimported.
      if (isCmsError(err)) return null;
      throw err;
    }
  }
}
