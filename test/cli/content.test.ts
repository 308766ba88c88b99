import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { cliSite, describeEachTarget } from '../helpers/cli.js';
import { postsCollection } from '../helpers/content.js';

describeEachTarget('cms content', (kind) => {
  it('creates (published unless --draft), reads, pages through and updates entries with _rev checks', async () => {
    const site = await cliSite(kind);
    await postsCollection(site.cms);

    const first = await site.run([
      'content',
      'create',
      'posts',
      '--data',
      '{"title":"First"}',
      '--slug',
      'first',
      '--json',
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json().item).toMatchObject({ slug: 'first', status: 'published', data: { title: 'First' } });
    expect(first.stderr).toContain(kind === 'http' ? `Target: ${site.url} (token)` : 'Target: local database');
    const id = first.json().item.id as string;

    writeFileSync(join(site.dir, 'post.yaml'), 'title: From YAML\nviews: 3\n');
    const draft = await site.run(['content', 'create', 'posts', '--file', 'post.yaml', '--draft']);
    expect(draft.code, draft.stderr).toBe(0);
    expect(draft.stdout).toMatch(/^Created posts\/[0-9A-Z]{26} \(from-yaml, en\): draft\n$/);
    const piped = await site.run(['content', 'create', 'posts', '--stdin', '--json'], { stdin: '{"title":"Piped"}' });
    expect(piped.json().item.data.title).toBe('Piped');
    for (const t of ['Four', 'Five']) {
      expect((await site.run(['content', 'create', 'posts', '--data', JSON.stringify({ title: t })])).code).toBe(0);
    }

    // Usage errors: exit 2, nothing written.
    expect((await site.run(['content', 'create', 'posts'])).code).toBe(2);
    const both = await site.run(['content', 'create', 'posts', '--data', '{}', '--stdin']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--data, --file or --stdin');
    expect((await site.run(['content', 'create', 'posts', '--data', '[1]'])).code).toBe(2);
    expect((await site.run(['content', 'create', 'posts', '--data', '{oops'])).code).toBe(2);

    const shown = await site.run(['content', 'get', 'posts', 'first']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`id           ${id}`);
    expect(shown.stdout).toMatch(/status {7}published\n/);
    expect(shown.stdout).toContain('"title": "First"');

    // Paging: one page with its cursor, the next page, and --all.
    const page = await site.run(['content', 'list', 'posts', '--limit', '2', '--json']);
    expect(page.json().items).toHaveLength(2);
    const next = await site.run([
      'content',
      'list',
      'posts',
      '--limit',
      '2',
      '--cursor',
      page.json().nextCursor,
      '--json',
    ]);
    expect(next.json().items).toHaveLength(2);
    expect(next.json().items[0].id).not.toBe(page.json().items[0].id);
    const all = await site.run(['content', 'list', 'posts', '--all', '--limit', '2', '--json']);
    expect(all.code, all.stderr).toBe(0);
    expect(
      all
        .json()
        .items.map((i: any) => i.data.title)
        .sort(),
    ).toEqual(['First', 'Five', 'Four', 'From YAML', 'Piped']);
    expect(all.stderr).toContain('… 2 entries');
    expect(all.stderr).toContain('… 5 entries, done');
    const table = await site.run(['content', 'list', 'posts', '--limit', '2']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +SLUG +STATUS +LOCALE +TITLE +UPDATED$/);
    expect(table.stderr).toContain('More entries: add --cursor ');
    const drafts = await site.run(['content', 'list', 'posts', '--status', 'draft', '--json']);
    expect(drafts.json().items.map((i: any) => i.slug)).toEqual(['from-yaml']);
    const filtered = await site.run(['content', 'list', 'posts', '--filter', '{"views":{"gte":2}}', '--json']);
    expect(filtered.json().items.map((i: any) => i.slug)).toEqual(['from-yaml']);
    const badFilter = await site.run(['content', 'list', 'posts', '--filter', '[1]']);
    expect(badFilter.code).toBe(1);
    expect(badFilter.stderr).toContain('fieldFilters');
    expect((await site.run(['content', 'list', 'posts', '--status', 'bogus'])).code).toBe(2);
    expect((await site.run(['content', 'list', 'posts', '--limit', '0'])).code).toBe(2);
    const tooMany = await site.run(['content', 'list', 'posts', '--limit', '500']);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain('[VALIDATION_ERROR]');
    expect(tooMany.stderr).toContain('limit:');

    // Update: read-then-write by slug stages a draft on the live entry; --publish makes it live.
    const staged = await site.run(['content', 'update', 'posts', 'first', '--data', '{"title":"First!"}']);
    expect(staged.stdout).toBe(`Updated posts/${id} (first, en): published, pending draft\n`);
    const live = await site.run(['content', 'update', 'posts', id, '--data', '{"views":7}', '--publish', '--json']);
    expect(live.json().item).toMatchObject({
      status: 'published',
      hasDraft: false,
      data: { title: 'First!', views: 7 },
    });
    const rev = live.json()._rev as string;
    const renamed = await site.run(['content', 'update', 'posts', id, '--slug', 'first-post', '--rev', rev, '--json']);
    expect(renamed.code, renamed.stderr).toBe(0);
    const stale = await site.run(['content', 'update', 'posts', id, '--rev', rev, '--data', '{"title":"Lost"}']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('[REV_CONFLICT]');
    expect(stale.stderr).toContain('The --rev you passed is not the current revision');
    const after = await site.run(['content', 'get', 'posts', id, '--json']);
    expect(after.json().item.data.title).toBe('First!');
  });

  it('moves entries through their lifecycle: unpublish, schedule, trash, restore, delete, duplicate, discard', async () => {
    const site = await cliSite(kind);
    await postsCollection(site.cms);
    const id = (await site.run(['content', 'create', 'posts', '--data', '{"title":"Life"}', '--json'])).json().item.id;
    const step = async (args: string[]) => {
      const r = await site.run([...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      return r.json().item;
    };
    expect((await step(['content', 'unpublish', 'posts', id])).status).toBe('draft');
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await step(['content', 'schedule', 'posts', id, '--at', at]);
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect((await step(['content', 'unschedule', 'posts', id])).scheduledAt).toBeNull();
    expect((await site.run(['content', 'schedule', 'posts', id])).code).toBe(2);
    expect((await step(['content', 'publish', 'posts', 'life'])).status).toBe('published');

    await step(['content', 'update', 'posts', id, '--data', '{"title":"Draft change"}']);
    const discarded = await step(['content', 'discard-draft', 'posts', id]);
    expect(discarded).toMatchObject({ hasDraft: false, data: { title: 'Life' } });

    const copy = await step(['content', 'duplicate', 'posts', 'life']);
    expect(copy.id).not.toBe(id);
    expect(copy.status).toBe('draft');

    const notConfirmed = await site.run(['content', 'delete', 'posts', id]);
    expect(notConfirmed.code).toBe(2);
    expect(notConfirmed.stderr).toContain('--yes');
    expect((await step(['content', 'trash', 'posts', id])).status).toBe('trashed');
    const trash = await site.run(['content', 'list', 'posts', '--trash', '--json']);
    expect(trash.json().items.map((i: any) => i.id)).toEqual([id]);
    expect((await step(['content', 'restore', 'posts', id])).status).toBe('draft');
    await step(['content', 'trash', 'posts', id]);
    const deleted = await site.run(['content', 'delete', 'posts', id, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`Deleted posts/${id} for good\n`);
    const gone = await site.run(['content', 'get', 'posts', id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('[NOT_FOUND]');
  });

  it('creates translations with --locale and --translation-of and lists them', async () => {
    const i18n = { locales: ['en', 'fr'], defaultLocale: 'en' };
    const site = await cliSite(kind, { fileConfig: { i18n } });
    await postsCollection(site.cms);
    const source = (
      await site.run(['content', 'create', 'posts', '--data', '{"title":"Hello"}', '--slug', 'hello', '--json'])
    ).json().item;
    const fr = await site.run([
      'content',
      'create',
      'posts',
      '--locale',
      'fr',
      '--translation-of',
      source.id,
      '--slug',
      'bonjour',
      '--data',
      '{"title":"Bonjour"}',
      '--json',
    ]);
    expect(fr.code, fr.stderr).toBe(0);
    // A translation starts as a draft; the command publishes it unless --draft.
    expect(fr.json().item).toMatchObject({
      locale: 'fr',
      status: 'published',
      translationGroup: source.translationGroup,
    });
    const list = await site.run(['content', 'translations', 'posts', 'hello']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^Translation group ${source.translationGroup}\nLOCALE +ID +SLUG +STATUS +UPDATED\n`),
    );
    expect(list.stdout).toMatch(new RegExp(`fr +${fr.json().item.id} +bonjour +published`));
    const json = await site.run(['content', 'translations', 'posts', source.id, '--json']);
    expect(
      json
        .json()
        .items.map((t: any) => t.locale)
        .sort(),
    ).toEqual(['en', 'fr']);
    const bySlug = await site.run(['content', 'get', 'posts', 'bonjour', '--locale', 'fr', '--json']);
    expect(bySlug.json().item.id).toBe(fr.json().item.id);
    const frList = await site.run(['content', 'list', 'posts', '--locale', 'fr', '--json']);
    expect(frList.json().items.map((i: any) => i.slug)).toEqual(['bonjour']);
    const unknown = await site.run(['content', 'create', 'posts', '--locale', 'de', '--data', '{"title":"Hallo"}']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[VALIDATION_ERROR]');
  });

  it('prints API error codes and the field at fault, and refuses what the role may not do', async () => {
    const site = await cliSite(kind);
    await postsCollection(site.cms);
    const nul = await site.run(['content', 'create', 'posts', '--data', '{"title":"a\\u0000b"}']);
    expect(nul.code).toBe(1);
    expect(nul.stderr).toContain('[VALIDATION_ERROR]');
    expect(nul.stderr).toContain('data.title: must not contain NUL characters');
    const missing = await site.run(['content', 'create', 'posts', '--data', '{"views":1}']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/\[VALIDATION_ERROR\][^\n]*\n {2}[^\n]*title/);
    const unknown = await site.run(['content', 'list', 'nothing']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[NOT_FOUND]');

    // A Contributor may create but not publish: the entry stays a draft and the command says so.
    const contributor = await site.user(ROLES.CONTRIBUTOR);
    const made = await site.run(['content', 'create', 'posts', '--data', '{"title":"Mine"}'], {
      token: contributor.token,
    });
    expect(made.code).toBe(1);
    expect(made.stderr).toMatch(/Created posts\/[0-9A-Z]{26} as a draft, but publishing it failed/);
    expect(made.stderr).toContain('[INSUFFICIENT_PERMISSIONS]');
    const mine = await site.run(['content', 'list', 'posts', '--json']);
    expect(mine.json().items).toMatchObject([{ status: 'draft', data: { title: 'Mine' } }]);
    const subscriber = await site.user(ROLES.SUBSCRIBER);
    const refused = await site.run(['content', 'create', 'posts', '--data', '{"title":"No"}'], {
      token: subscriber.token,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[INSUFFICIENT_PERMISSIONS]');

    if (kind !== 'http') {
      const noUser = await site.run(['content', 'list', 'posts'], { as: null });
      expect(noUser.code).toBe(2);
      expect(noUser.stderr).toContain('pass --as EMAIL');
      const stranger = await site.run(['content', 'list', 'posts'], { as: 'nobody@example.test' });
      expect(stranger.code).toBe(1);
      expect(stranger.stderr).toContain('No user with the email address nobody@example.test');
    } else {
      const bad = await site.run(['content', 'list', 'posts'], { token: 'cms_pat_nope' });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('[UNAUTHORIZED]');
    }
  });
});
