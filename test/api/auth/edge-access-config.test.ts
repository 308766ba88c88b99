import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { type ConfigInput, loadConfig, resolveConfig } from '../../../src/core/config.js';
import { authMode, requireAuthFeature } from '../../../src/core/config-auth.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const base = { type: 'edge-access' as const, teamDomain: 'myteam.cloudflareaccess.com' };
const resolve = (auth: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  resolveConfig({ logLevel: 'silent', auth, ...extra } as ConfigInput);

describe('edge access gateway mode: configuration', () => {
  it('is the default mode without the auth option', () => {
    const config = resolveConfig({ logLevel: 'silent' });
    expect(config.auth).toEqual({ type: 'default' });
    expect(authMode(config)).toBe('default');
    expect(() => requireAuthFeature(config, 'login-providers')).not.toThrow();
  });

  it('completes the options with the contract defaults and derives the issuer and keys from the team domain', () => {
    const config = resolve({ ...base, audience: 'tag-1' });
    expect(config.auth).toEqual({
      type: 'edge-access',
      teamDomain: 'myteam.cloudflareaccess.com',
      audience: 'tag-1',
      autoProvision: true,
      defaultRole: ROLES.AUTHOR,
      syncRoles: false,
      roleMapping: [],
      certsUrl: 'https://myteam.cloudflareaccess.com/cdn-cgi/access/certs',
      issuer: 'https://myteam.cloudflareaccess.com',
    });
    expect(authMode(config)).toBe('edge-access');
    // The shared rule the login provider routes call.
    expect(() => requireAuthFeature(config, 'login-providers')).toThrow(
      expect.objectContaining({
        code: 'AUTH_MODE_UNAVAILABLE',
        details: { mode: 'edge-access', feature: 'login-providers' },
      }),
    );
  });

  it('keeps the roleMapping order and refuses group names an object would reorder', () => {
    const config = resolve({ ...base, audience: 't', roleMapping: { b: 40, a: 50, c: 10 } });
    expect(config.auth.type === 'edge-access' && config.auth.roleMapping).toEqual([
      ['b', 40],
      ['a', 50],
      ['c', 10],
    ]);
    expect(() => resolve({ ...base, audience: 't', roleMapping: { staff: 40, '2024': 30 } })).toThrow(
      /auth\.roleMapping\.2024: a group name made only of digits/,
    );
    expect(() => resolve({ ...base, audience: 't', roleMapping: { staff: 45 } })).toThrow(/role level/);
    expect(() => resolve({ ...base, audience: 't', defaultRole: 60 })).toThrow(
      /auth\.defaultRole: must be a role level/,
    );
  });

  it('takes the audience from EDGE_ACCESS_AUDIENCE, or from the variable audienceEnvVar names', () => {
    vi.stubEnv('EDGE_ACCESS_AUDIENCE', 'from-default-variable');
    expect(resolve(base).auth).toMatchObject({ audience: 'from-default-variable' });
    vi.stubEnv('MY_AUD', 'from-my-variable');
    expect(resolve({ ...base, audienceEnvVar: 'MY_AUD' }).auth).toMatchObject({ audience: 'from-my-variable' });
    // The option itself wins over the variable.
    expect(resolve({ ...base, audience: 'direct' }).auth).toMatchObject({ audience: 'direct' });
  });

  it('reads the option from the configuration file, and the audience from the environment it is given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-auth-config-'));
    try {
      writeFileSync(join(dir, 'cms.config.json'), JSON.stringify({ auth: { ...base, syncRoles: true } }));
      const config = loadConfig({ EDGE_ACCESS_AUDIENCE: 'tag-from-env' }, dir);
      expect(config.auth).toMatchObject({ type: 'edge-access', audience: 'tag-from-env', syncRoles: true });
      expect(() => loadConfig({}, dir)).toThrow(/auth\.audience/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops start-up with one line naming both sources when the audience is missing', () => {
    vi.stubEnv('EDGE_ACCESS_AUDIENCE', '');
    let message = '';
    try {
      resolve(base);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration: auth\.audience: /);
    expect(message).toContain('"auth.audience"');
    expect(message).toContain('EDGE_ACCESS_AUDIENCE');
    expect(message).not.toContain('\n');
    expect(() => resolve({ ...base, audienceEnvVar: 'MISSING_AUD' })).toThrow(/MISSING_AUD/);
  });

  it('refuses the gateway mode together with login providers', () => {
    expect(() => resolve({ ...base, audience: 't' }, { providers: [{ id: 'github' }] })).toThrow(
      /^Invalid configuration: auth: the edge access gateway mode .* replaces login providers/,
    );
  });

  it('accepts http addresses for certsUrl and issuer on loopback only', () => {
    const local = resolve({
      ...base,
      audience: 't',
      certsUrl: 'http://127.0.0.1:8787/certs',
      issuer: 'http://localhost:8787',
    });
    expect(local.auth).toMatchObject({ certsUrl: 'http://127.0.0.1:8787/certs', issuer: 'http://localhost:8787' });
    expect(() => resolve({ ...base, audience: 't', certsUrl: 'http://keys.example.com/certs' })).toThrow(
      /auth\.certsUrl: must use https/,
    );
    expect(() => resolve({ ...base, audience: 't', issuer: 'http://issuer.example.com' })).toThrow(
      /auth\.issuer: must use https/,
    );
    expect(() => resolve({ ...base, audience: 't', certsUrl: 'ftp://127.0.0.1/certs' })).toThrow(/auth\.certsUrl/);
    expect(resolve({ ...base, audience: 't', certsUrl: 'https://keys.example.com/certs' }).auth).toMatchObject({
      certsUrl: 'https://keys.example.com/certs',
    });
  });

  it('refuses a team domain that is not a host name, and unknown options', () => {
    for (const teamDomain of ['https://myteam.cloudflareaccess.com', 'myteam', 'team.example.com/path', '']) {
      expect(() => resolve({ ...base, teamDomain, audience: 't' })).toThrow(/auth\.teamDomain/);
    }
    expect(() => resolve({ ...base, audience: 't', groupsClaim: 'roles' })).toThrow(/groupsClaim: unknown option/);
    expect(() => resolve({ type: 'passwords' })).toThrow(/auth\.type/);
  });
});
