import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { listen } from '../../src/http/server.js';
import { createCms } from '../../src/index.js';
import { runTs, startTs } from '../helpers/process.js';

describe('server lifecycle', () => {
  it('finishes in-flight requests on stop, then refuses new connections and closes the database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-srv-'));
    const cms = await createCms({
      config: resolveConfig({ dataDir, databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`, logLevel: 'silent' }),
      logger: createLogger('silent'),
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const inHandler = new Promise<void>((r) => (arrived = r));
    cms.app.get('/slow', async (c) => {
      arrived();
      await gate;
      return c.text('done');
    });
    const running = await listen(cms, 0, '127.0.0.1');
    const inFlight = fetch(`${running.url}/slow`).then((r) => r.text());
    await inHandler;
    const stopped = running.stop();
    // While the request is held, the server already refuses new connections.
    await expect(fetch(`${running.url}/_cms/api/openapi.json`)).rejects.toThrow();
    release();
    expect(await inFlight).toBe('done');
    await stopped;
    await expect(fetch(`${running.url}/_cms/api/openapi.json`)).rejects.toThrow();
    await expect(cms.database.db.selectFrom('_cms_users').selectAll().execute()).rejects.toThrow();
  });

  it('starts from the process entry, serves, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-proc-'));
    const child = startTs('src/main.ts', { CMS_DATA_DIR: dataDir, PORT: '0', CMS_LOG_LEVEL: 'warn' });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const res = await fetch(`${url}/_cms/api/openapi.json`);
    expect(res.status).toBe(200);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('stops at start-up with a message naming the bad key and a non-zero exit code', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cms-badcfg-'));
    writeFileSync(join(cwd, 'cms.config.json'), JSON.stringify({ i18n: { locales: ['en'], defaultLocale: 'fr' } }));
    const res = await runTs('src/main.ts', [], { PORT: '0' }, cwd);
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim()).toBe('Invalid configuration: i18n.defaultLocale: must be one of i18n.locales');
    const env = await runTs('src/main.ts', [], { PORT: 'abc' }, cwd);
    expect(env.code).not.toBe(0);
    expect(env.stderr).toMatch(/^Invalid configuration: PORT:/);
  }, 60_000);
});
