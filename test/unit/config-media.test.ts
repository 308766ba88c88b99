import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { DEFAULT_MEDIA_TYPES } from '../../src/core/config-media.js';

const dir = () => mkdtempSync(join(tmpdir(), 'cms-config-'));

describe('media configuration', () => {
  it('stores files under the data directory by default', () => {
    const cwd = dir();
    const c = loadConfig({}, cwd);
    expect(c.storage).toEqual({ kind: 'file', root: join(cwd, 'data', 'media') });
    expect(c.mediaAllowedTypes).toEqual(DEFAULT_MEDIA_TYPES);
    expect(c.mediaAllowedTypes).not.toContain('text/html');
    expect(c.maxImagePixels).toBe(100_000_000);
  });

  it('reads an S3 bucket, prefix, endpoint and public URL from the file and the environment', () => {
    const cwd = dir();
    writeFileSync(
      join(cwd, 'cms.config.json'),
      JSON.stringify({
        storage: { url: 's3://site-media/prod/', region: 'eu-west-1', publicUrl: 'https://cdn.example.com/' },
      }),
    );
    const c = loadConfig(
      {
        CMS_S3_ENDPOINT: 'http://127.0.0.1:9000',
        CMS_MEDIA_ALLOWED_TYPES: 'image/*, application/PDF',
        CMS_MAX_IMAGE_PIXELS: '5000',
        CMS_S3_TIMEOUT_MS: '4000',
      },
      cwd,
    );
    expect(c.storage).toEqual({
      kind: 's3',
      bucket: 'site-media',
      prefix: 'prod',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      publicUrl: 'https://cdn.example.com',
      credentials: null,
      timeoutMs: 4000,
    });
    expect(c.mediaAllowedTypes).toEqual(['image/*', 'application/pdf']);
    expect(c.maxImagePixels).toBe(5000);
    const env = loadConfig({ CMS_STORAGE_URL: 'file:/srv/media', AWS_REGION: 'us-west-2' }, cwd);
    expect(env.storage).toEqual({ kind: 'file', root: '/srv/media' });
    const plain = loadConfig(
      { CMS_STORAGE_URL: 's3://bucket', CMS_S3_FORCE_PATH_STYLE: 'false', AWS_REGION: 'us-west-2' },
      dir(),
    );
    expect(plain.storage).toMatchObject({ bucket: 'bucket', prefix: '', region: 'us-west-2', forcePathStyle: false });
  });

  it('names the bad media option', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ CMS_STORAGE_URL: 'ftp://x' }, /CMS_STORAGE_URL/],
      [{ CMS_STORAGE_URL: 's3://A_bucket' }, /CMS_STORAGE_URL/],
      [{ CMS_S3_PUBLIC_URL: 'not a url' }, /CMS_S3_PUBLIC_URL/],
      [{ CMS_MEDIA_ALLOWED_TYPES: 'images' }, /CMS_MEDIA_ALLOWED_TYPES/],
      [{ CMS_MAX_IMAGE_PIXELS: '-3' }, /CMS_MAX_IMAGE_PIXELS/],
    ];
    for (const [env, message] of cases) {
      let caught: unknown;
      try {
        loadConfig(env, dir());
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((caught as Error).message).toMatch(message);
    }
  });
});
