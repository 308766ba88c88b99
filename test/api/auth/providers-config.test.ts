import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolveConfig } from '../../../src/core/config.js';
import { runTs } from '../../helpers/process.js';

const GUID = '6F1C2D3E-4A5B-4C6D-8E9F-0A1B2C3D4E5F';
const full = {
  CMS_OAUTH_GITHUB_CLIENT_ID: 'gh-id',
  CMS_OAUTH_GITHUB_CLIENT_SECRET: 'gh-secret',
  CMS_OAUTH_GOOGLE_CLIENT_ID: 'g-id',
  CMS_OAUTH_GOOGLE_CLIENT_SECRET: 'g-secret',
  CMS_OAUTH_ENTRA_CLIENT_ID: 'e-id',
  CMS_OAUTH_ENTRA_CLIENT_SECRET: 'e-secret',
  CMS_OAUTH_ENTRA_TENANT_ID: GUID,
};
const resolveWith = (providers: unknown, env: Record<string, string> = full) =>
  resolveConfig({ dataDir: '/tmp/cms-test-data', providers }, undefined, env).providers;
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

describe('login provider configuration', () => {
  it('keeps the ordered list with credentials from the environment and default addresses', () => {
    const list = resolveWith([
      { id: 'github' },
      { id: 'entra', emailVerified: false },
      { id: 'atproto', allowedHandles: ['@Alice.Example.com'], allowedDIDs: ['did:plc:abc123'] },
      { id: 'google' },
    ]);
    expect(list.map((p) => p.id)).toEqual(['github', 'entra', 'atproto', 'google']);
    expect(list[0]).toMatchObject({
      clientId: 'gh-id',
      clientSecret: 'gh-secret',
      urls: { url: 'https://github.com', apiUrl: 'https://api.github.com' },
    });
    expect(list[1]).toMatchObject({
      options: { emailVerified: false },
      tenantId: GUID.toLowerCase(),
      urls: { authority: 'https://login.microsoftonline.com' },
    });
    // The AT Protocol provider needs no secret; its allowlists are validated (handles lower-cased, no "@").
    expect(list[2]).toMatchObject({
      clientId: null,
      clientSecret: null,
      options: { allowedHandles: ['alice.example.com'], allowedDIDs: ['did:plc:abc123'] },
    });
    expect(list[3]).toMatchObject({ urls: { issuer: 'https://accounts.google.com' } });
    expect(resolveWith(undefined)).toEqual([]);
  });

  it('reads the prefixed variable first and the unprefixed one as fallback', () => {
    const [both] = resolveWith([{ id: 'github' }], {
      CMS_OAUTH_GITHUB_CLIENT_ID: 'prefixed-id',
      GITHUB_CLIENT_ID: 'plain-id',
      GITHUB_CLIENT_SECRET: 'plain-secret',
    });
    expect(both).toMatchObject({ clientId: 'prefixed-id', clientSecret: 'plain-secret' });
    // An empty prefixed variable counts as unset.
    const [fallback] = resolveWith([{ id: 'entra' }], {
      CMS_OAUTH_ENTRA_CLIENT_ID: '',
      ENTRA_CLIENT_ID: 'plain',
      ENTRA_CLIENT_SECRET: 's',
      ENTRA_TENANT_ID: 'organizations',
    });
    expect(fallback).toMatchObject({ clientId: 'plain', tenantId: 'organizations' });
  });

  it('names the missing variable in one line', () => {
    const { CMS_OAUTH_GOOGLE_CLIENT_SECRET: _, ...noSecret } = full;
    expect(errorOf(() => resolveWith([{ id: 'google' }], noSecret))).toBe(
      'Invalid configuration: CMS_OAUTH_GOOGLE_CLIENT_SECRET: is not set (nor GOOGLE_CLIENT_SECRET); the "google" login provider in providers needs it',
    );
    const { CMS_OAUTH_ENTRA_TENANT_ID: __, ...noTenant } = full;
    expect(errorOf(() => resolveWith([{ id: 'entra' }], noTenant))).toMatch(
      /^Invalid configuration: CMS_OAUTH_ENTRA_TENANT_ID: is not set \(nor ENTRA_TENANT_ID\)/,
    );
    expect(errorOf(() => resolveWith([{ id: 'github' }], {}))).toMatch(/^[^\n]*CMS_OAUTH_GITHUB_CLIENT_ID[^\n]*$/);
  });

  it('accepts a directory ID or common, organizations, consumers, and refuses a domain name', () => {
    for (const tenant of ['common', 'Organizations', 'consumers']) {
      expect(resolveWith([{ id: 'entra' }], { ...full, CMS_OAUTH_ENTRA_TENANT_ID: tenant })[0].tenantId).toBe(
        tenant.toLowerCase(),
      );
    }
    const domain = errorOf(() => resolveWith([{ id: 'entra' }], { ...full, CMS_OAUTH_ENTRA_TENANT_ID: 'contoso.com' }));
    expect(domain).toMatch(/^Invalid configuration: CMS_OAUTH_ENTRA_TENANT_ID: "contoso.com" is a domain name/);
    expect(domain).toContain('use the directory (tenant) ID');
    expect(
      errorOf(() => resolveWith([{ id: 'entra' }], { ...full, ENTRA_TENANT_ID: 'x', CMS_OAUTH_ENTRA_TENANT_ID: '' })),
    ).toMatch(/ENTRA_TENANT_ID: must be a directory \(tenant\) ID/);
  });

  it('accepts plain http for loopback addresses only', () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://[::1]:9000', 'http://localhost:3000']) {
      const [p] = resolveWith([{ id: 'google' }], { ...full, CMS_OAUTH_GOOGLE_ISSUER: url });
      expect(p.urls.issuer).toBe(url.replace(/\/$/, ''));
    }
    const [ghes] = resolveWith([{ id: 'github' }], {
      ...full,
      CMS_OAUTH_GITHUB_URL: 'https://ghe.example.com',
      CMS_OAUTH_GITHUB_API_URL: 'https://ghe.example.com/api/v3/',
    });
    expect(ghes.urls).toEqual({ url: 'https://ghe.example.com', apiUrl: 'https://ghe.example.com/api/v3' });
    expect(
      errorOf(() => resolveWith([{ id: 'entra' }], { ...full, CMS_OAUTH_ENTRA_AUTHORITY: 'http://login.example.com' })),
    ).toBe(
      'Invalid configuration: CMS_OAUTH_ENTRA_AUTHORITY: must use https (plain http is accepted only for 127.0.0.1, ::1 and localhost)',
    );
    expect(
      errorOf(() => resolveWith([{ id: 'github' }], { ...full, CMS_OAUTH_GITHUB_API_URL: 'http://10.0.0.1' })),
    ).toMatch(/CMS_OAUTH_GITHUB_API_URL: must use https/);
    // The override addresses have no unprefixed fallback (CI systems set GITHUB_API_URL for themselves).
    expect(resolveWith([{ id: 'github' }], { ...full, GITHUB_API_URL: 'http://example.com' })[0].urls.apiUrl).toBe(
      'https://api.github.com',
    );
  });

  it('refuses an unknown id, a duplicate id and an unknown option, naming the key', () => {
    expect(errorOf(() => resolveWith([{ id: 'github' }, { id: 'gitlab' }]))).toMatch(
      /^Invalid configuration: providers\[1\]\.id: unknown login provider "gitlab" \(known: github, google, entra, atproto/,
    );
    expect(errorOf(() => resolveWith([{ id: 'google' }, { id: 'google' }]))).toBe(
      'Invalid configuration: providers[1].id: "google" is listed twice',
    );
    expect(errorOf(() => resolveWith([{ id: 'github', emailVerified: true }]))).toBe(
      'Invalid configuration: providers[0].emailVerified: unknown option',
    );
    expect(errorOf(() => resolveWith([{ id: 'entra', emailVerified: 'yes' }]))).toMatch(
      /^Invalid configuration: providers\[0\]\.emailVerified: /,
    );
    expect(errorOf(() => resolveWith([{ id: 'atproto', allowedDIDs: ['alice'] }]))).toMatch(
      /^Invalid configuration: providers\[0\]\.allowedDIDs\.0: expected a DID/,
    );
    expect(errorOf(() => resolveWith({ id: 'github' }))).toMatch(/^Invalid configuration: providers: must be a list/);
    expect(errorOf(() => resolveWith([{}]))).toMatch(/^Invalid configuration: providers\[0\]\.id: is required/);
  });

  it('reads the list from the file only', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cms-providers-'));
    writeFileSync(join(cwd, 'cms.config.json'), JSON.stringify({ providers: [{ id: 'google' }] }));
    const config = loadConfig({ ...full, CMS_PROVIDERS: '[{"id":"github"}]' }, cwd);
    expect(config.providers.map((p) => p.id)).toEqual(['google']);
  });

  it('stops start-up with one line naming the missing variable', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cms-providers-'));
    writeFileSync(join(cwd, 'cms.config.json'), JSON.stringify({ providers: [{ id: 'github' }] }));
    const res = await runTs(
      'src/main.ts',
      [],
      {
        PORT: '0',
        CMS_OAUTH_GITHUB_CLIENT_ID: '',
        GITHUB_CLIENT_ID: '',
        CMS_OAUTH_GITHUB_CLIENT_SECRET: 'set',
      },
      cwd,
    );
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim()).toBe(
      'Invalid configuration: CMS_OAUTH_GITHUB_CLIENT_ID: is not set (nor GITHUB_CLIENT_ID); the "github" login provider in providers needs it',
    );
  }, 60_000);
});
