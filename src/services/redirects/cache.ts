import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { Matcher, type RuleRecord } from './matcher.js';
import type { RedirectStatus } from './rule.js';

/** Re-read the version row at most this often; a write in this process rebuilds at once. */
const VERSION_CHECK_MS = 1_000;
const VERSION_KEY = 'redirects_version';

export async function enabledRules(db: Kdb): Promise<RuleRecord[]> {
  const rows = await db
    .selectFrom('_cms_redirects')
    .select(['id', 'source', 'target', 'status_code', 'created_at'])
    .where('enabled', '=', 1)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    target: r.target,
    statusCode: Number(r.status_code) as RedirectStatus,
    createdAt: r.created_at,
  }));
}

/**
 * Mark the rules as changed, inside the writing transaction. The value is a
 * fresh ID rather than a counter, so two concurrent writers can never leave
 * the same value behind for two different rule sets.
 */
export async function bumpRulesVersion(trx: Kdb): Promise<void> {
  await trx.updateTable('_cms_meta').set({ value: newId() }).where('key', '=', VERSION_KEY).execute();
}

async function readVersion(db: Kdb): Promise<string> {
  const row = await db.selectFrom('_cms_meta').select('value').where('key', '=', VERSION_KEY).executeTakeFirst();
  return row?.value ?? '';
}

/**
 * The compiled rules of this process. Public requests never wait on the
 * database for a lookup except when the version row changed (checked at most
 * once a second), so another process's change is seen within a second.
 */
export class RuleCache {
  private matcher: Matcher | null = null;
  private version = '';
  private checkedAt = 0;
  private loading: Promise<Matcher> | null = null;

  constructor(private readonly db: Kdb) {}

  async get(): Promise<Matcher> {
    if (this.matcher && Date.now() - this.checkedAt < VERSION_CHECK_MS) return this.matcher;
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const version = await readVersion(this.db);
        if (!this.matcher || version !== this.version) {
          this.matcher = new Matcher(await enabledRules(this.db));
          this.version = version;
        }
        this.checkedAt = Date.now();
        return this.matcher;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  invalidate(): void {
    this.matcher = null;
    this.checkedAt = 0;
  }
}
