import { describe, expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { resolveConfig } from '../../../src/core/config.js';
import { createCms } from '../../../src/index.js';
import '../../../src/providers-atproto.js';
import { isUndeliverable, noAddressFor } from '../../../src/services/auth/no-address.js';
import { checkDiscovered } from '../../../src/services/auth/providers/atproto-fetch.js';
import { freshDatabase } from '../../helpers/db.js';

/** The AT Protocol provider's options, its resolution addresses, where it may reach, and reserved addresses. */
describe('AT Protocol provider configuration', () => {
  const resolveWith = (entry: Record<string, unknown>, env: Record<string, string> = {}) =>
    resolveConfig({ dataDir: '/tmp/cms-test-data', providers: [{ id: 'atproto', ...entry }] }, undefined, env)
      .providers[0];
  const errorOf = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('expected an error');
  };

  it('needs no secret; its options and the resolution addresses have defaults', () => {
    expect(resolveWith({})).toMatchObject({
      clientId: null,
      clientSecret: null,
      options: {},
      urls: { plcUrl: 'https://plc.directory', handleResolver: '' },
    });
    expect(
      resolveWith({ allowedDIDs: ['did:web:example.com'], defaultRole: ROLES.EDITOR, allowPrivateNetwork: true })
        .options,
    ).toEqual({ allowedDIDs: ['did:web:example.com'], defaultRole: ROLES.EDITOR, allowPrivateNetwork: true });
    expect(errorOf(() => resolveWith({ defaultRole: ROLES.ADMIN }))).toBe(
      'Invalid configuration: providers[0].defaultRole: must be 10, 20, 30 or 40 (allowlist sign-up never makes Admins)',
    );
    expect(errorOf(() => resolveWith({ allowPrivateNetwork: 'yes' }))).toMatch(
      /^Invalid configuration: providers\[0\]\.allowPrivateNetwork: /,
    );
    expect(errorOf(() => resolveWith({ clientSecret: 'x' }))).toBe(
      'Invalid configuration: providers[0].clientSecret: unknown option',
    );
  });

  it('takes a PLC directory and a handle resolver of a private deployment, plain http on loopback only', () => {
    const own = resolveWith(
      {},
      {
        CMS_OAUTH_ATPROTO_PLC_URL: 'https://plc.corp.example/',
        CMS_OAUTH_ATPROTO_HANDLE_RESOLVER: 'http://[::1]:2583',
      },
    );
    expect(own.urls).toEqual({ plcUrl: 'https://plc.corp.example', handleResolver: 'http://[::1]:2583' });
    expect(errorOf(() => resolveWith({}, { CMS_OAUTH_ATPROTO_PLC_URL: 'http://plc.corp.example' }))).toBe(
      'Invalid configuration: CMS_OAUTH_ATPROTO_PLC_URL: must use https (plain http is accepted only for 127.0.0.1, ::1 and localhost)',
    );
    expect(errorOf(() => resolveWith({}, { CMS_OAUTH_ATPROTO_HANDLE_RESOLVER: 'http://10.0.0.2:2583' }))).toMatch(
      /^Invalid configuration: CMS_OAUTH_ATPROTO_HANDLE_RESOLVER: must use https/,
    );
    // No unprefixed fallback.
    expect(resolveWith({}, { ATPROTO_PLC_URL: 'http://127.0.0.1:1' }).urls.plcUrl).toBe('https://plc.directory');
  });

  it('stops start-up on a public http site: the client ID must be https, or loopback for development', async () => {
    const config = resolveConfig({
      dataDir: '/tmp/cms-test-data',
      logLevel: 'silent',
      publicUrl: 'http://cms.example.test',
      providers: [{ id: 'atproto' }],
    });
    const db = await freshDatabase('sqlite');
    try {
      await expect(createCms({ config, database: db.database, scheduler: false })).rejects.toThrow(
        'Invalid configuration: publicUrl: the "atproto" login provider needs an https publicUrl',
      );
    } finally {
      await db.drop();
    }
  });

  it('reaches discovered hosts over https on public addresses only', async () => {
    const open = { allowHttp: false, privateNetwork: false };
    const refused = (url: string, reach = open) =>
      checkDiscovered(new URL(url), reach).then(
        () => null,
        (err) => (err as { code?: string }).code,
      );
    expect(await refused('https://93.184.215.14/.well-known/oauth-protected-resource')).toBeNull();
    for (const url of [
      'http://pds.example.com',
      'https://10.0.0.5',
      'https://[::1]:2583',
      'https://localhost',
      'https://169.254.169.254',
    ]) {
      expect(await refused(url), url).toBe('PROVIDER_FAILED');
    }
    // Loopback development reaches loopback over http; a closed network reaches private addresses, never link-local.
    expect(await refused('http://127.0.0.1:2583', { allowHttp: true, privateNetwork: false })).toBeNull();
    expect(await refused('http://10.0.0.5', { allowHttp: true, privateNetwork: false })).toBe('PROVIDER_FAILED');
    expect(await refused('https://10.0.0.5', { allowHttp: false, privateNetwork: true })).toBeNull();
    expect(await refused('https://169.254.169.254', { allowHttp: false, privateNetwork: true })).toBe(
      'PROVIDER_FAILED',
    );
  });

  it('gives an account without an address a reserved one per DID that nothing mails', () => {
    expect(noAddressFor('did:plc:ewvi7nxzyoun6zhxrhs64oiz')).toBe('did-plc-ewvi7nxzyoun6zhxrhs64oiz@did.invalid');
    expect(noAddressFor('did:web:alice.example.com')).toBe('did-web-alice.example.com@did.invalid');
    // A DID that does not read as an address (a port, a path, upper case) by its hash: still one per DID.
    const port = noAddressFor('did:web:localhost%3A8080');
    expect(port).toMatch(/^did-[0-9a-f]{40}@did\.invalid$/);
    expect(noAddressFor('did:web:localhost%3A8081')).not.toBe(port);
    for (const a of ['did-plc-x@did.invalid', 'x@example.invalid', 'x@INVALID', 'x@example.invalid.']) {
      expect(isUndeliverable(a), a).toBe(true);
    }
    expect(isUndeliverable('alice@example.com')).toBe(false);
    expect(isUndeliverable('alice@invalid.example.com')).toBe(false);
  });
});
