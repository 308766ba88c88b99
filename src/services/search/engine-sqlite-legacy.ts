import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import { assertIndexTable } from './engine.js';
import type { SearchDoc } from './model.js';

/**
 * Writes to a SQLite index of the first layout, where `<t>_docs` held the
 * tier texts and was the content table of `<t>`. Such an index keeps serving
 * searches (and so must follow entry writes) while the background worker
 * rebuilds it in the current layout (see `SearchEngine.outdated`); reads need
 * nothing special, as FTS5 finds its content table itself.
 */
export async function writeLegacy(trx: Kdb, table: string, entryIds: string[], docs: SearchDoc[]): Promise<void> {
  const fts = sql.id(assertIndexTable(table));
  const docsT = sql.id(`${table}_docs`);
  const titles = sql.id(`${table}_title`);
  const ids = sql.join(entryIds);
  await sql`insert into ${fts} (${fts}, rowid, a, b, c, d)
    select 'delete', rowid, a, b, c, d from ${docsT} where entry_id in (${ids})`.execute(trx);
  await sql`insert into ${titles} (${titles}, rowid, title)
    select 'delete', rowid, title from ${docsT} where entry_id in (${ids})`.execute(trx);
  await sql`delete from ${docsT} where entry_id in (${ids})`.execute(trx);
  if (!docs.length) return;
  const rows = docs.map(
    (d) =>
      sql`(${d.entryId}, ${d.version}, ${d.live ? 1 : 0}, ${d.current ? 1 : 0}, ${d.locale}, ${d.status}, ${d.slug}, ${d.title},
      ${d.text.a}, ${d.text.b}, ${d.text.c}, ${d.text.d})`,
  );
  await sql`insert into ${docsT} (entry_id, version, live, current, locale, status, slug, title, a, b, c, d)
    values ${sql.join(rows)}`.execute(trx);
  await sql`insert into ${fts} (rowid, a, b, c, d)
    select rowid, a, b, c, d from ${docsT} where entry_id in (${ids})`.execute(trx);
  await sql`insert into ${titles} (rowid, title)
    select rowid, title from ${docsT} where entry_id in (${ids})`.execute(trx);
}

/** The first layout's tables, for tests of the upgrade (what an index built before the change looks like). */
export async function createLegacy(trx: Kdb, table: string, tokenize: string, titleTokenize: string): Promise<void> {
  const fts = sql.id(assertIndexTable(table));
  await sql`create table ${sql.id(`${table}_docs`)} (
    rowid integer primary key, entry_id text not null, version integer not null,
    live integer not null, current integer not null,
    locale text not null, status text not null, slug text, title text not null,
    a text not null, b text not null, c text not null, d text not null)`.execute(trx);
  await sql`create index ${sql.id(`${table}_docs_entry`)} on ${sql.id(`${table}_docs`)} (entry_id)`.execute(trx);
  await sql`create virtual table ${fts} using fts5(a, b, c, d,
    content=${sql.lit(`${table}_docs`)}, content_rowid='rowid', tokenize=${sql.lit(tokenize)}, prefix='2 3')`.execute(
    trx,
  );
  await sql`create virtual table ${sql.id(`${table}_title`)} using fts5(title,
    content=${sql.lit(`${table}_docs`)}, content_rowid='rowid', tokenize=${sql.lit(titleTokenize)}, prefix='2 3')`.execute(
    trx,
  );
}
