import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import { setupSite } from '../../helpers/session.js';
import { ok } from './helpers.js';

/** A well-formed media ID that names no item of the library. */
const MISSING = '01JAAAAAAAAAAAAAAAAAAAAAAA';

describeEachDialect('site settings', (dialect) => {
  it('reads defaults, changes only what is sent, and resets with null', async () => {
    const cms = await mediaCms(dialect);
    const MEDIA = (await uploaded(cms, await png())).id as string;
    expect(await ok(cms, 'GET', '/settings')).toEqual({
      title: null,
      tagline: null,
      logo: null,
      favicon: null,
      timezone: 'UTC',
      siteUrl: null,
      seo: { defaultOgImage: null, titleSeparator: '|', description: null },
    });
    const changed = await ok(cms, 'PUT', '/settings', {
      title: '  Field Notes ',
      tagline: 'Short and true',
      logo: MEDIA,
      timezone: 'Europe/Paris',
      siteUrl: 'https://example.com/blog/',
      seo: { defaultOgImage: MEDIA, titleSeparator: '–' },
    });
    expect(changed).toMatchObject({
      title: 'Field Notes',
      tagline: 'Short and true',
      logo: MEDIA,
      favicon: null,
      timezone: 'Europe/Paris',
      siteUrl: 'https://example.com/blog',
      seo: { defaultOgImage: MEDIA, titleSeparator: '–', description: null },
    });
    const partial = await ok(cms, 'PUT', '/settings', { tagline: null, seo: { description: 'About things' } });
    expect(partial).toMatchObject({
      title: 'Field Notes',
      tagline: null,
      seo: { defaultOgImage: MEDIA, titleSeparator: '–', description: 'About things' },
    });
    expect((await ok(cms, 'PUT', '/settings', { timezone: 'utc' })).timezone).toBe('UTC');
    expect(await cms.services.settings.siteUrl()).toBe('https://example.com/blog');
    await ok(cms, 'PUT', '/settings', { siteUrl: null });
    expect(await cms.services.settings.siteUrl()).toBe(cms.config.publicUrl);
    expect(await cms.services.settings.selecting(MEDIA)).toEqual([
      { setting: 'logo' },
      { setting: 'seo.defaultOgImage' },
    ]);
  });

  it('sitemaps and hreflang alternates build absolute links from the siteUrl setting', async () => {
    // Hreflang alternates exist only on a multilingual site (rule 8).
    const cms = await testCms(dialect, {
      config: { publicUrl: 'https://service.example', i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } },
    });
    await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: {
        slug: 'posts',
        label: 'Posts',
        urlPattern: '/blog/{slug}',
        supports: ['drafts', 'seo'],
        fields: [{ slug: 'title', label: 'Title', type: 'string' }],
      },
    });
    const entry = (await ok(cms, 'POST', '/content/posts', { data: { title: 'Hello' }, slug: 'hello' })).item;
    await ok(cms, 'POST', `/content/posts/${entry.id}/publish`, {});
    const hrefs = async () =>
      (await ok(cms, 'GET', `/seo/posts/${entry.id}/alternates`)).items.map((a: { href: string }) => a.href);
    expect(await hrefs()).toEqual(['https://service.example/blog/hello', 'https://service.example/blog/hello']);
    await ok(cms, 'PUT', '/settings', { siteUrl: 'https://www.example.org/' });
    expect(await hrefs()).toEqual(['https://www.example.org/blog/hello', 'https://www.example.org/blog/hello']);
    const sitemap = await cms.app.request('/sitemap-posts.xml');
    expect(await sitemap.text()).toContain('<loc>https://www.example.org/blog/hello</loc>');
  });

  it('refuses invalid values, naming the field, and changes nothing', async () => {
    const cms = await testCms(dialect);
    await ok(cms, 'PUT', '/settings', { title: 'Kept' });
    for (const [body, path] of [
      [{ title: '   ' }, ['title']],
      [{ title: 'x'.repeat(201) }, ['title']],
      [{ tagline: 'a\u0000b' }, ['tagline']],
      [{ tagline: 'lone \udc00' }, ['tagline']],
      [{ timezone: 'Mars/Olympus' }, ['timezone']],
      [{ siteUrl: 'javascript:alert(1)' }, ['siteUrl']],
      [{ siteUrl: 'https://user:pw@example.com' }, ['siteUrl']],
      [{ siteUrl: 'https://example.com/?q=1' }, ['siteUrl']],
      [{ siteUrl: 'example.com' }, ['siteUrl']],
      [{ logo: 'not-a-media-id' }, ['logo']],
      [{ seo: { defaultOgImage: 'x' } }, ['seo', 'defaultOgImage']],
      [{ favicon: MISSING, unknown: 1 }, []],
      [{ logo: MISSING }, ['logo']],
      [{ seo: { defaultOgImage: MISSING } }, ['seo', 'defaultOgImage']],
    ] as const) {
      const res = await call(cms, 'PUT', '/settings', {
        token: cms.adminToken,
        body: { ...body, title: body.title ?? 'Changed' },
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      if (path.length) expect(res.body.error.details.issues[0].path, JSON.stringify(body)).toEqual(path);
      if (JSON.stringify(body).includes(MISSING) && path.length) {
        expect(res.body.error.details.issues[0]).toMatchObject({ code: 'not_found' });
      }
    }
    expect(await ok(cms, 'GET', '/settings')).toMatchObject({ title: 'Kept', favicon: null, timezone: 'UTC' });
  });

  it('Editors read, Admins change; token scopes limit both', async () => {
    const cms = await testCms(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    const author = await cms.userToken(ROLES.AUTHOR);
    expect((await call(cms, 'GET', '/settings', { token: editor.token })).status).toBe(200);
    const put = await call(cms, 'PUT', '/settings', { token: editor.token, body: { title: 'x' } });
    expect(put.status).toBe(403);
    expect(put.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const read = await call(cms, 'GET', '/settings', { token: author.token });
    expect(read.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const readScope = await cms.userToken(ROLES.ADMIN, ['settings:read']);
    expect((await call(cms, 'GET', '/settings', { token: readScope.token })).status).toBe(200);
    const noManage = await call(cms, 'PUT', '/settings', { token: readScope.token, body: { title: 'x' } });
    expect(noManage.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const contentOnly = await cms.userToken(ROLES.ADMIN, ['content:write']);
    expect((await call(cms, 'GET', '/settings', { token: contentOnly.token })).body.error.code).toBe(
      'INSUFFICIENT_SCOPE',
    );
    const manage = await cms.userToken(ROLES.ADMIN, ['settings:manage']);
    expect((await call(cms, 'PUT', '/settings', { token: manage.token, body: { title: 'By scope' } })).status).toBe(
      200,
    );
    expect((await call(cms, 'GET', '/settings')).status).toBe(401);
  });

  it('the setup wizard writes the title and tagline through the settings; /auth/me shows them with the time zone', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms, { siteTitle: 'Field Notes', tagline: 'Short' });
    const settings = await browser.call('GET', '/settings');
    expect(settings.body.data).toMatchObject({ title: 'Field Notes', tagline: 'Short', timezone: 'UTC' });
    const changed = await browser.call('PUT', '/settings', { body: { title: 'Renamed', timezone: 'Asia/Tokyo' } });
    expect(changed.status).toBe(200);
    expect((await browser.call('GET', '/auth/me')).body.data.site).toEqual({
      title: 'Renamed',
      tagline: 'Short',
      timezone: 'Asia/Tokyo',
    });
    expect((await call(cms, 'GET', '/setup/status')).body.data.site.title).toBe('Renamed');
  });
});
