import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'cms-config-'));
}

describe('configuration', () => {
  it('has working defaults: port 4321, SQLite in ./data, single-language', () => {
    const cwd = dir();
    const c = loadConfig({}, cwd);
    expect(c.port).toBe(4321);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toBe(join(cwd, 'data'));
    expect(c.databaseUrl).toBe(`sqlite:${join(cwd, 'data', 'cms.db')}`);
    expect(c.publicUrl).toBe('http://localhost:4321');
    expect(c.i18n).toEqual({ locales: ['en'], defaultLocale: 'en', fallback: {}, enabled: false });
    expect(c.maxUploadSize).toBe(50 * 1024 * 1024);
    expect(c.trustedProxyHeaders).toEqual([]);
    expect(c.sqliteCacheSize).toBe(2 * 1024 * 1024);
    expect([c.searchHeadSize, c.searchHeadThreshold]).toEqual([100, 250]);
    expect(loadConfig({ CMS_SEARCH_HEAD_SIZE: '40', CMS_SEARCH_HEAD_THRESHOLD: '1000' }, cwd)).toMatchObject({
      searchHeadSize: 40,
      searchHeadThreshold: 1000,
    });
  });

  it('reads cms.config.json, and environment variables win over it', () => {
    const cwd = dir();
    writeFileSync(
      join(cwd, 'cms.config.json'),
      JSON.stringify({
        port: 5000,
        publicUrl: 'https://cms.example.com/',
        i18n: { locales: ['en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' } },
        maxUploadSize: 1000,
        trustedProxyHeaders: ['x-forwarded-for'],
      }),
    );
    const c = loadConfig(
      { PORT: '6000', CMS_DATABASE_URL: 'postgres://u@h/db', CMS_SQLITE_CACHE_SIZE: '8388608' },
      cwd,
    );
    expect(c.port).toBe(6000);
    expect(c.publicUrl).toBe('https://cms.example.com');
    expect(c.databaseUrl).toBe('postgres://u@h/db');
    expect(c.i18n).toEqual({ locales: ['en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' }, enabled: true });
    expect(c.maxUploadSize).toBe(1000);
    expect(c.trustedProxyHeaders).toEqual(['x-forwarded-for']);
    expect(c.sqliteCacheSize).toBe(8 * 1024 * 1024);
  });

  it('reads the file named by CMS_CONFIG', () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'other.json'), JSON.stringify({ host: '0.0.0.0' }));
    expect(loadConfig({ CMS_CONFIG: 'other.json' }, cwd).host).toBe('0.0.0.0');
    expect(() => loadConfig({ CMS_CONFIG: 'missing.json' }, cwd)).toThrow(/CMS_CONFIG/);
  });

  it('names the bad key in one clear message', () => {
    const cwd = dir();
    const cases: Array<[Record<string, string>, unknown, RegExp]> = [
      [{ PORT: 'eighty' }, {}, /Invalid configuration: PORT:/],
      [{ CMS_DATABASE_URL: 'mysql://x' }, {}, /CMS_DATABASE_URL/],
      [{ CMS_PUBLIC_URL: 'ftp://x' }, {}, /CMS_PUBLIC_URL/],
      [{}, { i18n: { locales: ['en'], defaultLocale: 'de' } }, /i18n\.defaultLocale/],
      [{}, { i18n: { locales: ['en', 'fr'], defaultLocale: 'en', fallback: { fr: 'es' } } }, /i18n\.fallback\.fr/],
      [{}, { maxUploadSize: -1 }, /maxUploadSize/],
      [{}, { trustedProxyHeaders: ['x-evil'] }, /trustedProxyHeaders/],
      [{ CMS_SQLITE_CACHE_SIZE: '1024' }, {}, /CMS_SQLITE_CACHE_SIZE/],
      [{}, { sqliteCacheSize: 'lots' }, /sqliteCacheSize/],
      [{ CMS_SEARCH_HEAD_SIZE: '1' }, {}, /CMS_SEARCH_HEAD_SIZE/],
      [{}, { searchHeadThreshold: 0 }, /searchHeadThreshold/],
      [{}, { colour: 'blue' }, /colour: unknown option/],
    ];
    for (const [env, file, message] of cases) {
      const d = dir();
      writeFileSync(join(d, 'cms.config.json'), JSON.stringify(file));
      let caught: unknown;
      try {
        loadConfig(env, d);
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify([env, file])).toBeInstanceOf(ConfigError);
      expect((caught as Error).message).toMatch(message);
    }
    writeFileSync(join(cwd, 'cms.config.json'), '{ not json');
    expect(() => loadConfig({}, cwd)).toThrow(/not valid JSON/);
  });
});
