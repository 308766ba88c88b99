import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';

/** Rules updated per statement (three parameters each, far below both engines' limits). */
const CHUNK = 500;

/**
 * Hit counts of redirect rules, added up in memory and written by one
 * statement per 500 rules at each flush (every few seconds and at shutdown),
 * so a redirect costs a visitor no database write. A crash loses at most one
 * interval.
 */
export class HitCounter {
  private pending = new Map<string, { n: number; last: string }>();

  constructor(private readonly db: Kdb) {}

  hit(id: string, at: string): void {
    const p = this.pending.get(id);
    if (p) {
      p.n++;
      p.last = at;
    } else this.pending.set(id, { n: 1, last: at });
  }

  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = [...this.pending];
    this.pending = new Map();
    for (let i = 0; i < batch.length; i += CHUNK) {
      // UPDATE … FROM a derived table works alike on SQLite (3.33+) and PostgreSQL.
      const rows = sql.join(
        batch
          .slice(i, i + CHUNK)
          .map(([id, { n, last }]) => sql`select ${id} as id, cast(${n} as bigint) as n, ${last} as last`),
        sql` union all `,
      );
      await sql`
        update _cms_redirects
        set hits = _cms_redirects.hits + v.n,
            last_hit_at = case
              when _cms_redirects.last_hit_at is null or _cms_redirects.last_hit_at < v.last then v.last
              else _cms_redirects.last_hit_at end
        from (${rows}) as v
        where _cms_redirects.id = v.id`.execute(this.db);
    }
  }
}
