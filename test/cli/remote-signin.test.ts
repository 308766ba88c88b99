import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Actor } from '../../src/auth/actor.js';
import { GRANT_DEVICE_CODE } from '../../src/services/oauth/index.js';
import { type CliSite, cliSite, runIn } from '../helpers/cli.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';

/** What `cms login` stores, obtained through the same device grant (approved as a signed-in Admin). */
async function signIn(site: CliSite, scopes: string[]) {
  const { oauth } = site.cms.services;
  const client = await oauth.register({
    client_name: 'CMS command line on test',
    grant_types: [GRANT_DEVICE_CODE, 'refresh_token'],
    token_endpoint_auth_method: 'none',
    scope: scopes.join(' '),
  });
  const device = await oauth.deviceAuthorization({ clientId: client.client_id }, { scope: scopes.join(' ') });
  const admin: Actor = {
    kind: 'user',
    userId: site.cms.adminId,
    name: 'Admin',
    email: 'admin@example.test',
    role: 50,
    scopes: null,
    tokenId: null,
    via: 'session',
  };
  await oauth.device.approve(admin, device.user_code, scopes);
  const tokens = await oauth.token(
    { clientId: client.client_id },
    { grant_type: GRANT_DEVICE_CODE, device_code: device.device_code },
  );
  const file = join(site.dir, 'credentials.json');
  const creds = {
    version: 1,
    url: site.url,
    clientId: client.client_id,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    scope: tokens.scope,
  };
  writeFileSync(file, JSON.stringify(creds), { mode: 0o600 });
  return { file, creds };
}

describeEachDialect('cms --remote (the stored cms login)', (dialect) => {
  it('works on the signed-in site, refreshes an expired access token, and refuses another site', async () => {
    const site = await cliSite('http', { serverDialect: dialect });
    await postsCollection(site.cms);
    const { file, creds } = await signIn(site, ['content:read', 'content:write']);
    const env = { CMS_CREDENTIALS_FILE: file, CMS_LOG_LEVEL: 'silent' };
    const run = (args: string[]) => runIn(site.dir, args, env);

    const made = await run(['--remote', 'content', 'create', 'posts', '--data', '{"title":"Signed in"}', '--json']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(`Target: ${site.url} (stored sign-in)`);
    expect(made.json().item.authorId).toBe(site.cms.adminId);
    // --url naming the signed-in site uses the stored sign-in too.
    const listed = await run(['--url', `${site.url}/`, 'content', 'list', 'posts', '--json']);
    expect(listed.json().items).toHaveLength(1);
    // The grant's scopes hold: no schema access.
    const schema = await run(['--remote', 'schema', 'list']);
    expect(schema.code).toBe(1);
    expect(schema.stderr).toContain('[INSUFFICIENT_SCOPE]');

    writeFileSync(file, JSON.stringify({ ...creds, expiresAt: '2000-01-01T00:00:00.000Z' }), { mode: 0o600 });
    const refreshed = await run(['--remote', 'content', 'list', 'posts', '--json']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const rotated = JSON.parse(readFileSync(file, 'utf8'));
    expect(rotated.refreshToken).not.toBe(creds.refreshToken);
    expect(Date.parse(rotated.expiresAt)).toBeGreaterThan(Date.now());

    const other = await run(['--url', 'http://127.0.0.1:9', 'content', 'list', 'posts']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`The stored sign-in is for ${site.url}; pass --token for http://127.0.0.1:9`);

    // A revoked sign-in: the refresh is refused and the message says to sign in again.
    await run(['logout']);
    writeFileSync(file, JSON.stringify({ ...rotated, expiresAt: '2000-01-01T00:00:00.000Z' }), { mode: 0o600 });
    const ended = await run(['--remote', 'content', 'list', 'posts']);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain(`run: cms login --url ${site.url}`);
  });
});
