/**
 * A re-run with skipExisting after a run that was cut short (the server killed mid-import) writes
 * what the cut run had not: here the items of a menu the cut run had created but not yet filled
 * (menus are created, then their items written, in two steps). Menus that have items are left as
 * they are. test/recovery/wordpress-import.test.ts kills a real server during the import.
 */
import { expect, it } from 'vitest';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { importExport, postExport, wxrBytes } from '../../helpers/wxr.js';

describeEachDialect('WordPress import: re-run after a cut run', (dialect) => {
  it('fills a menu the cut run created without its items, and leaves menus with items alone', {
    timeout: 120_000,
  }, async () => {
    const cms = await testCms(dialect);
    const file = wxrBytes('themeunittestdata.wordpress.xml');
    const { result } = await importExport(cms, cms.adminToken, file);
    expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(200);
    const db = cms.ctx.db;
    const items = async () => {
      const rows = await db
        .selectFrom('_cms_menu_items as i')
        .innerJoin('_cms_menus as m', 'm.id', 'i.menu_id')
        .select(['m.name', 'i.id', 'i.parent_id', 'i.position', 'i.kind', 'i.label', 'i.url', 'i.target_group'])
        .orderBy('m.name')
        .orderBy('i.id')
        .execute();
      const byMenu = new Map<string, typeof rows>();
      for (const r of rows) byMenu.set(r.name, [...(byMenu.get(r.name) ?? []), r]);
      return byMenu;
    };
    /** A menu's items without their IDs: the label path from the top, position, kind, link, target. */
    const shape = (rows: Awaited<ReturnType<typeof items>> extends Map<string, infer R> ? R : never) => {
      const byId = new Map(rows.map((r) => [r.id, r]));
      const path = (r: (typeof rows)[number]): string =>
        r.parent_id ? `${path(byId.get(r.parent_id)!)} > ${r.label}` : String(r.label);
      return rows
        .map((r) => ({ path: path(r), position: r.position, kind: r.kind, url: r.url, target: r.target_group }))
        .sort((a, b) => a.path.localeCompare(b.path));
    };
    const before = await items();
    const [cut, kept] = [...before.entries()].sort((a, b) => b[1].length - a[1].length);
    expect(cut[1].length).toBeGreaterThan(1);
    // What a kill between the two steps leaves: the menu is there, its items are not.
    await db
      .deleteFrom('_cms_menu_items')
      .where(
        'id',
        'in',
        cut[1].map((r) => r.id),
      )
      .execute();

    const again = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, file, {
      config: JSON.stringify({ skipExisting: true }),
    });
    expect(again.status, JSON.stringify(again.body).slice(0, 500)).toBe(200);
    expect(again.body.data.imported).toBe(cut[1].length);
    expect(again.body.data.menus).toMatchObject({ created: 0, failed: 0, items: { imported: cut[1].length } });
    const after = await items();
    expect(shape(after.get(cut[0])!)).toEqual(shape(cut[1]));
    // A menu with items is not merged into: the same rows, untouched.
    expect(after.get(kept[0])).toEqual(kept[1]);

    const third = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, file, {
      config: JSON.stringify({ skipExisting: true }),
    });
    expect(third.body.data.imported).toBe(0);
    expect(await items()).toEqual(after);
  });
});
