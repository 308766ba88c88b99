import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { ROLES } from '../../src/auth/roles.js';
import { runCli } from '../../src/cli/run.js';
import type { Target } from '../../src/cli/target/types.js';
import { advanceImport, decisionRequest, ImportEnded } from '../../src/cli/transfer/import-run.js';
import { type CliSite, cliSite, describeEachTarget } from '../helpers/cli.js';
import { blogSite } from '../helpers/cli-transfer.js';
import { call } from '../helpers/cms.js';
import { filesUnder, tarOf } from '../helpers/transfer.js';

/** Export `site` with the CLI into a tar archive; its absolute path. */
async function exported(site: CliSite): Promise<string> {
  const res = await site.run(['transfer', 'export', '--out', 'site.tar', '--json']);
  expect(res.code, res.stderr).toBe(0);
  return res.json().archive;
}

const titles = async (site: CliSite, collection: string) => {
  const res = await site.run(['content', 'list', collection, '--json']);
  expect(res.code, res.stderr).toBe(0);
  return (res.json().items as Array<{ data: { title: string } }>).map((i) => i.data.title).sort();
};

describeEachTarget('cms transfer import', (kind) => {
  it('imports an exported site into an empty site: plan, then receipt', async () => {
    const { site: source, image } = await blogSite(kind);
    const archive = await exported(source);
    const target = await cliSite(kind);

    const res = await target.run(['transfer', 'import', archive, '--yes']);
    expect(res.code, res.stderr).toBe(0);
    // The plan on stdout: the source, counts, users and where their records go …
    expect(res.stdout).toMatch(/^import +[0-9A-Z]{26}\nsource +http\S* \("My blog"\), release /);
    expect(res.stdout).toMatch(/\nrecords +\d+: settings \d+, users 1, collections 2, /);
    expect(res.stdout).toMatch(/\nexecutable +yes\n/);
    expect(res.stdout).toMatch(
      // Addresses are shown at the local command line; a bearer token (over http) never gets them.
      new RegExp(
        `\\n${source.cms.adminId} +Admin +${kind === 'http' ? '' : 'admin@example\\.test +'}admin +\\d+ +${target.cms.adminId} \\(same e-mail address\\)\\n`,
      ),
    );
    expect(res.stdout).toContain('Transformations\n  - principals_mapped (users): 1');
    // … then the receipt.
    expect(res.stdout).toMatch(/\n\nimport +[0-9A-Z]{26} complete\nrecords +\d+: .* written\n/);
    expect(res.stdout).toMatch(/\nusers +1 mapped to users of this site, 0 created\n/);
    expect(res.stdout).toContain(`\nmedia           1 (${image.size} B)\n`);
    expect(res.stdout).toMatch(/\nreceipt digest +sha256:[0-9a-f]{64}/);
    // Progress on stderr.
    expect(res.stderr).toMatch(/Created import [0-9A-Z]{26}\n/);
    expect(res.stderr).toMatch(/\d+ package files listed in manifest.json; \d+ to upload/);
    expect(res.stderr).toContain('executing:');
    expect(res.stderr).toMatch(/Import [0-9A-Z]{26} complete: \d+ records written/);

    // The entries, the media and the settings arrived.
    expect(await titles(target, 'posts')).toEqual(await titles(source, 'posts'));
    expect(await titles(target, 'pages')).toEqual(await titles(source, 'pages'));
    const media = await call(target.cms, 'GET', '/media', { token: target.cms.adminToken });
    expect(media.body.data.items.map((m: any) => m.id)).toEqual([image.id]);
    const settings = await call(target.cms, 'GET', '/settings', { token: target.cms.adminToken });
    expect(settings.body.data.title).toBe('My blog');

    // Listed, with its status and receipt.
    const list = await target.run(['transfer', 'imports']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      /^ID +STATE +CREATED +FILES +BYTES +PLAN\n[0-9A-Z]{26} +complete +\S+ \S+ +(\d+)\/\1 +/,
    );
    const id = list.stdout.split('\n')[1].split(' ')[0];
    const status = await target.run(['transfer', 'import-status', id]);
    expect(status.stdout).toMatch(/\nstate +complete\n/);
    expect(status.stdout).toContain(`next            cms transfer receipt ${id}`);
    const receipt = await target.run(['transfer', 'receipt', id, '--json']);
    expect(receipt.json()).toMatchObject({ importId: id, principals: { mapped: 1, created: 0 } });
    // A complete import is not resumed.
    const again = await target.run(['transfer', 'import', archive, '--id', id, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Import ${id} is complete: see cms transfer receipt ${id}`);
  });

  it('prints JSON with --json, takes decisions, and resumes a planned import with --id', async () => {
    const { site: source } = await blogSite(kind);
    const editor = await source.user(ROLES.EDITOR);
    const archive = await exported(source);
    const target = await cliSite(kind);
    await call(target.cms, 'PUT', '/settings', { token: target.cms.adminToken, body: { title: 'New home' } });

    const planned = await target.run(['transfer', 'import', archive, '--plan-only', '--json']);
    expect(planned.code, planned.stderr).toBe(0);
    const first = planned.json();
    expect(first.import).toMatchObject({ state: 'planned', files: { missing: 0 } });
    expect(first.receipt).toBeNull();
    expect(first.plan.principals.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: editor.userId, mappedUserId: null })]),
    );
    expect(first.plan.decisions.title).toBe('package');
    expect(planned.stderr).toContain(`Import ${first.import.id} is planned. Execute it with: `);

    // New decisions on the plan: the editor's records go to the admin, this site's title stays.
    const decided = await target.run([
      'transfer',
      'plan',
      first.import.id,
      '--map',
      `${editor.userId}=admin@example.test`,
      '--keep-title',
      '--json',
    ]);
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.json().decisions).toMatchObject({
      principals: { [editor.userId]: target.cms.adminId },
      title: 'target',
    });
    expect(decided.json().planDigest).not.toBe(first.plan.planDigest);
    const unknown = await target.run(['transfer', 'plan', first.import.id, '--create', 'Nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No package user Nobody');
    expect((await target.run(['transfer', 'plan', first.import.id, '--map', 'x'])).code).toBe(2);

    // Resumed: nothing is uploaded again; the plan is executed with the decisions taken.
    const done = await target.run(['transfer', 'import', archive, '--id', first.import.id, '--yes', '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain(`Resuming import ${first.import.id}`);
    expect(done.stderr).toMatch(/; 0 to upload \(0 B\)/);
    const out = done.json();
    expect(out.import).toMatchObject({ id: first.import.id, state: 'complete', holdsSite: false });
    expect(out.plan.decisions.title).toBe('target');
    expect(out.receipt).toMatchObject({ importId: first.import.id, principals: { mapped: 2, created: 0 } });
    const settings = await call(target.cms, 'GET', '/settings', { token: target.cms.adminToken });
    expect(settings.body.data.title).toBe('New home');
    expect((await titles(target, 'posts')).length).toBeGreaterThan(0);
  });

  it('stops at a blocked plan (exit 1) and without --yes off a terminal (exit 2)', async () => {
    const { site } = await blogSite(kind);
    const archive = await exported(site);

    // Into the site it came from: not empty.
    const blocked = await site.run(['transfer', 'import', archive, '--yes']);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toMatch(/\nexecutable +no: 1 blocker\n/);
    expect(blocked.stderr).toMatch(
      /Error: The plan has 1 blocker; nothing was imported:\n {2}- site_not_empty \(\d+\): This site already has content/,
    );
    const json = await site.run(['transfer', 'import', archive, '--json']);
    expect(json.code).toBe(1);
    expect(json.json().plan).toMatchObject({ executable: false, blockers: { total: 1 } });
    expect(json.json().plan.blockers.items[0].code).toBe('site_not_empty');

    // Into an empty site, but nobody said yes.
    const target = await cliSite(kind);
    const unconfirmed = await target.run(['transfer', 'import', archive]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stdout).toMatch(/\nexecutable +yes\n/);
    expect(unconfirmed.stderr).toMatch(/Error: Importing writes the whole package into the site: run again with --yes/);
    const id = unconfirmed.stderr.match(/--id ([0-9A-Z]{26})/)![1];
    const status = await target.run(['transfer', 'import-status', id, '--json']);
    expect(status.json()).toMatchObject({ id, state: 'planned', holdsSite: false });
    expect((await target.run(['content', 'list', 'posts'])).stderr).toContain('[NOT_FOUND]');
  });

  it('cancels an executing import, which holds the site until it is abandoned', async () => {
    const { site: source } = await blogSite(kind);
    const archive = await exported(source);
    const target = await cliSite(kind);
    const planned = (await target.run(['transfer', 'import', archive, '--plan-only', '--json'])).json();
    const id = planned.import.id;
    await target.cms.services.transfer.imports.execute(systemActor, id, {
      packageDigest: planned.plan.packageDigest,
      planDigest: planned.plan.planDigest,
    });

    const cancelled = await target.run(['transfer', 'cancel', id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(/\nstate +cancelled, holds the site\n/);
    expect(cancelled.stdout).toContain(`next            cms transfer abandon ${id} (undoes what it wrote`);
    expect(cancelled.stderr).toContain(`cms transfer abandon ${id} undoes what it wrote`);
    // Other writes wait, on the local database as through the API.
    const rename = ['users', 'update', 'admin@example.test', '--name', 'Renamed'];
    const refused = await target.run(rename);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`[TRANSFER_IMPORT_IN_PROGRESS]`);

    const asked = await target.run(['transfer', 'abandon', id]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('add --yes to confirm');
    const abandoned = await target.run(['transfer', 'abandon', id, '--yes', '--json']);
    expect(abandoned.code, abandoned.stderr).toBe(0);
    expect(abandoned.json()).toMatchObject({ id, state: 'abandoned', holdsSite: false });
    const open = await target.run(rename);
    expect(open.code, open.stderr).toBe(0);
    const again = await target.run(['transfer', 'abandon', id, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('[INVALID_STATE]');
    expect((await target.run(['transfer', 'receipt', id])).stderr).toContain('[INVALID_STATE]');
  });

  it('exits 1 with the error code of a failed import and points at abandon', async () => {
    const { site: source } = await blogSite(kind);
    const archive = await exported(source);
    const target = await cliSite(kind);
    const id = (await target.run(['transfer', 'import', archive, '--plan-only', '--json'])).json().import.id;
    // Storage loses the uploaded record files: the import fails when it reads them.
    for (const file of filesUnder(target.dir, /^[0-9A-Z]{26}\.ndjson$/)) rmSync(file);

    const failed = await target.run(['transfer', 'import', archive, '--id', id, '--yes', '--json']);
    expect(failed.code).toBe(1);
    expect(failed.json()).toMatchObject({ import: { id, state: 'failed', holdsSite: true }, receipt: null });
    const code = failed.json().import.error.code;
    expect(failed.stderr).toContain(`cms transfer abandon ${id} undoes what it wrote`);
    expect(failed.stderr).toContain(`Error: [${code}] `);
    expect((await target.run(['transfer', 'imports'])).stdout).toContain(`failed (${code}), holds the site`);
    const resumed = await target.run(['transfer', 'import', archive, '--id', id, '--yes']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(`cms transfer abandon ${id} removes it and undoes what it wrote`);

    const abandoned = await target.run(['transfer', 'abandon', id, '--yes']);
    expect(abandoned.code, abandoned.stderr).toBe(0);
    expect(abandoned.stdout).toContain(`\nstate           abandoned (${code})\n`);
    expect((await target.run(['schema', 'list', '--json'])).json()).toEqual([]);
  });

  it('reads gzipped archives, refuses what is not a site package and callers who may not import', async () => {
    const target = await cliSite(kind);
    const dir = mkdtempSync(join(tmpdir(), 'cms-import-'));
    writeFileSync(join(dir, 'wrong.tar'), await tarOf([['records/users/00001.ndjson', Buffer.from('{}\n')]]));
    const wrong = await target.run(['transfer', 'import', join(dir, 'wrong.tar'), '--yes']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('its first entry is records/users/00001.ndjson, not manifest.json');
    // Nothing was created on the site for it.
    expect((await target.run(['transfer', 'imports', '--json'])).json()).toEqual({ items: [] });
    const missing = await target.run(['transfer', 'import', join(dir, 'none.tar')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file');

    const editor = await target.user(ROLES.EDITOR);
    const { site: source } = await blogSite(kind);
    const archive = await exported(source);
    const denied = await target.run(['transfer', 'import', archive, '--yes'], { token: editor.token });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('[INSUFFICIENT_PERMISSIONS]');
    // A gzipped archive is read through gunzip.
    const gz = join(dir, 'site.tar.gz');
    writeFileSync(gz, gzipSync(readFileSync(archive)));
    const zipped = await target.run(['transfer', 'import', gz, '--plan-only', '--json']);
    expect(zipped.code, zipped.stderr).toBe(0);
    expect(zipped.json().import).toMatchObject({ state: 'planned', files: { missing: 0 } });
    if (kind === 'http') {
      // transfer:analyze uploads and analyses; executing needs transfer:execute.
      const analyst = await target.user(ROLES.ADMIN, ['transfer:analyze']);
      const res = await target.run(['transfer', 'import', archive, '--yes'], { token: analyst.token });
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/\nexecutable +yes\n/);
      expect(res.stderr).toContain('[INSUFFICIENT_SCOPE]');
      const id = res.stderr.match(/Created import ([0-9A-Z]{26})/)![1];
      const operator = await target.user(ROLES.ADMIN, ['transfer:analyze', 'transfer:execute']);
      const ok = await target.run(['transfer', 'import', archive, '--id', id, '--yes', '--json'], {
        token: operator.token,
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.json().import.state).toBe('complete');
    }
  });
});

describe('cms transfer import: confirmation on a terminal', () => {
  it('asks for "yes" when there is a terminal, and imports only then', async () => {
    const { site: source } = await blogSite('http');
    const archive = await exported(source);
    const target = await cliSite('http');
    const run = async (answer: string, args: string[]) => {
      let stdout = '';
      let stderr = '';
      const questions: string[] = [];
      const code = await runCli(['--url', target.url!, '--token', target.cms.adminToken, ...args], {
        stdout: { write: (t: string | Uint8Array) => (stdout += String(t)) },
        stderr: { write: (t: string) => (stderr += t) },
        env: {},
        cwd: target.dir,
        readStdin: async () => '',
        ask: async (q) => {
          questions.push(q);
          return answer;
        },
      });
      return { code, stdout, stderr, questions };
    };
    const no = await run('no', ['transfer', 'import', archive]);
    expect(no.code).toBe(2);
    expect(no.questions).toEqual([expect.stringMatching(/^Import this package into .*\nType "yes" to continue: $/)]);
    expect(no.stderr).toMatch(/Not confirmed: nothing was imported \(import [0-9A-Z]{26} stays planned\)/);
    const id = no.stderr.match(/import ([0-9A-Z]{26}) stays planned/)![1];
    const yes = await run(' YES ', ['transfer', 'import', archive, '--id', id]);
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stdout).toMatch(/\nimport +[0-9A-Z]{26} complete\n/);
  });
});

describe('cms transfer import: steps and decisions', () => {
  it('advances as the site asks and fails with its error code', async () => {
    const base = {
      kind: 'import',
      stage: 'records',
      packageDigest: 'sha256:x',
      planDigest: 'sha256:y',
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-01-02T03:04:05.678Z',
      completedAt: null,
      startedBy: null,
      files: { listed: 3, uploaded: 3, missing: 0, bytes: 10, bytesUploaded: 10 },
      plan: { executable: true, blockers: 0, warnings: 0 },
    };
    const answers = [
      {
        ...base,
        id: 'I1',
        state: 'executing',
        error: null,
        progress: { done: 2, total: 9 },
        holdsSite: true,
        nextRequestInMs: 20,
      },
      {
        ...base,
        id: 'I1',
        state: 'failed',
        error: { code: 'STORAGE_ERROR', message: 'A package file is gone' },
        progress: { done: 4, total: 9 },
        holdsSite: true,
        nextRequestInMs: null,
      },
    ];
    let asked = 0;
    const target = { transfer: { imports: { advance: async () => answers[asked++] } } } as unknown as Target;
    const started = { ...answers[0], nextRequestInMs: 0 };
    const failed = await advanceImport(target, started as never, { tick() {}, step() {} }).catch((e) => e);
    expect(failed).toBeInstanceOf(ImportEnded);
    expect(failed).toMatchObject({ code: 'STORAGE_ERROR', details: { importId: 'I1' } });
    expect(failed.op.state).toBe('failed');
    expect(asked).toBe(2);
  });

  it('checks --map and --create before anything is sent', () => {
    expect(decisionRequest({})).toBeNull();
    expect(decisionRequest({ keepTitle: true })).toEqual({ map: [], create: [], title: 'target' });
    expect(decisionRequest({ keepTagline: false })).toMatchObject({ tagline: 'package' });
    expect(decisionRequest({ map: ['a=b@example.com'], create: ['c'] })).toMatchObject({
      map: [['a', 'b@example.com']],
      create: ['c'],
    });
    expect(() => decisionRequest({ map: ['a'] })).toThrow(/--map takes PACKAGE_USER=SITE_USER/);
    expect(() => decisionRequest({ map: ['a=b'], create: ['a'] })).toThrow(/both --map and --create/);
  });
});
