import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { cliSite, describeEachTarget } from '../helpers/cli.js';
import { callOk } from '../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../helpers/content.js';

describeEachTarget('cms check', (kind) => {
  it('reports ok, then the problem with exit code 1, repairs it with --repair, and refuses non-Admins', async () => {
    const site = await cliSite(kind);
    const { cms } = site;
    await postsCollection(cms);
    await callOk(cms, cms.adminToken, 'POST', '/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] });
    await callOk(cms, cms.adminToken, 'POST', '/taxonomies/tags/terms', { label: 'News' });
    const { item } = await createEntry(cms, { data: { title: 'Heron' } });
    await callOk(cms, cms.adminToken, 'POST', `/content/posts/${item.id}/terms/tags`, { terms: ['news'] });
    await publish(cms, item.id);
    const only = ['--only', 'revisions,orphans,term-counts'];

    const clean = await site.run(['check', ...only]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^CHECK +STATUS +PROBLEMS +REPAIRED +MS\n/);
    expect(clean.stdout).toMatch(/term-counts +ok +0 +0/);

    await sql`delete from _cms_term_counts`.execute(cms.ctx.db);
    const found = await site.run(['check', ...only]);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(
      /term-counts TERM_COUNT_WRONG posts \S+: the count of term group \S+ in locale en is 0; the content implies 1 \(repairable\)/,
    );
    expect(found.stderr).toContain('1 problem(s) found; cms check --repair fixes the repairable ones');
    const json = await site.run(['check', '--json', '--only', 'term-counts']);
    expect(json.json()).toMatchObject({ status: 'problems', checks: [{ id: 'term-counts', problems: 1 }] });

    const repaired = await site.run(['check', '--repair', ...only]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain('(repaired)');
    expect((await site.run(['check', ...only])).code).toBe(0);

    expect((await site.run(['check', '--only', 'nope'])).code).toBe(2);
    const editor = await site.user(ROLES.EDITOR);
    const refused = await site.run(['check', ...only], { as: editor.email, token: editor.token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[INSUFFICIENT_PERMISSIONS]');
  });
});
