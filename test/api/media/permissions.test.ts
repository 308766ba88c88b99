import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, upload, uploaded } from '../../helpers/media.js';

describeEachDialect('Media roles and scopes', (dialect) => {
  it('reads for Subscribers, uploads for Contributors, registers for Authors, edits own (Author) and any (Editor)', async () => {
    const cms = await mediaCms(dialect);
    const t = await roleTokens(cms);
    const adminItem = await uploaded(cms, await png(5, 5));
    expect((await call(cms, 'GET', '/media', { token: null })).status).toBe(401);
    const anonymous = await upload(cms, await png(6, 6), { token: null });
    expect(anonymous.status).toBe(401);
    expect((await call(cms, 'GET', '/media', { token: t.subscriber.token })).status).toBe(200);
    expect((await call(cms, 'GET', `/media/${adminItem.id}`, { token: t.subscriber.token })).status).toBe(200);

    const subUpload = await upload(cms, await png(6, 6), { token: t.subscriber.token });
    expect(subUpload.status).toBe(403);
    expect(subUpload.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const contributorItem = await uploaded(cms, await png(7, 7), { token: t.contributor.token });
    expect(contributorItem.uploadedBy).toBe(t.contributor.userId);

    const target = { filename: 'a.png', contentType: 'image/png', size: 10 };
    expect((await call(cms, 'POST', '/media/upload-url', { token: t.contributor.token, body: target })).status).toBe(
      403,
    );
    expect((await call(cms, 'POST', '/media/upload-url', { token: t.author.token, body: target })).status).toBe(201);

    // Contributors may not edit, even their own uploads; Authors edit their own; Editors everything.
    const edit = (token: string, id: string) => call(cms, 'PUT', `/media/${id}`, { token, body: { alt: 'x' } });
    expect((await edit(t.contributor.token, contributorItem.id)).status).toBe(403);
    const authorItem = await uploaded(cms, await png(8, 8), { token: t.author.token });
    expect((await edit(t.author.token, authorItem.id)).status).toBe(200);
    expect((await edit(t.author.token, adminItem.id)).status).toBe(403);
    expect((await edit(t.editor.token, adminItem.id)).status).toBe(200);
    const replace = await upload(cms, await png(9, 9), {
      token: t.author.token,
      path: `/media/${adminItem.id}/replace`,
      method: 'PUT',
    });
    expect(replace.status).toBe(403);
    expect((await call(cms, 'DELETE', `/media/${adminItem.id}`, { token: t.author.token })).status).toBe(403);
    expect((await call(cms, 'DELETE', `/media/${authorItem.id}`, { token: t.author.token })).status).toBe(200);
    expect((await call(cms, 'DELETE', `/media/${contributorItem.id}`, { token: t.editor.token })).status).toBe(200);

    // Folders: read by everyone who reads media; created, renamed and deleted by Editors.
    const folder = { name: 'F' };
    expect((await call(cms, 'POST', '/media/folders', { token: t.author.token, body: folder })).status).toBe(403);
    const made = await call(cms, 'POST', '/media/folders', { token: t.editor.token, body: folder });
    expect(made.status).toBe(201);
    expect((await call(cms, 'GET', '/media/folders', { token: t.subscriber.token })).status).toBe(200);
    expect((await call(cms, 'DELETE', `/media/folders/${made.body.data.id}`, { token: t.author.token })).status).toBe(
      403,
    );
  });

  it('limits tokens by media:read and media:write scopes, never beyond the role', async () => {
    const cms = await mediaCms(dialect);
    const item = await uploaded(cms, await png(5, 5));
    const readOnly = await cms.userToken(ROLES.EDITOR, ['media:read']);
    const contentOnly = await cms.userToken(ROLES.EDITOR, ['content:read']);
    const writer = await cms.userToken(ROLES.EDITOR, ['media:write']);
    expect((await call(cms, 'GET', '/media', { token: readOnly.token })).status).toBe(200);
    const denied = await call(cms, 'GET', '/media', { token: contentOnly.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const noWrite = await upload(cms, await png(6, 6), { token: readOnly.token });
    expect(noWrite.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await call(cms, 'PUT', `/media/${item.id}`, { token: readOnly.token, body: { alt: 'x' } })).status).toBe(
      403,
    );
    expect((await upload(cms, await png(7, 7), { token: writer.token })).status).toBe(201);
    expect((await call(cms, 'PUT', `/media/${item.id}`, { token: writer.token, body: { alt: 'x' } })).status).toBe(200);
  });

  it('refuses cookie-authenticated uploads without X-CMS-Request (CSRF)', async () => {
    const cms = await mediaCms(dialect);
    const session = await cms.services.auth.sessions.create(cms.ctx.db, cms.adminId, 'passkey');
    const cookie = { cookie: `cms_session=${session.id}` };
    const res = await upload(cms, await png(), { token: null, headers: cookie });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CSRF_REJECTED');
    const ok = await upload(cms, await png(), { token: null, headers: { ...cookie, 'x-cms-request': '1' } });
    expect(ok.status).toBe(201);
  });
});
