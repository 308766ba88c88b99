import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { ROLES } from '../../src/auth/roles.js';
import { runExport } from '../../src/cli/commands/transfer-export.js';
import { ApiError } from '../../src/cli/errors.js';
import { Output } from '../../src/cli/io.js';
import type { Target } from '../../src/cli/target/types.js';
import { verifyArchiveFile } from '../../src/cli/transfer/archive.js';
import { progressOn } from '../../src/cli/transfer/progress.js';
import { type CliSite, cliSite, describeEachTarget, runIn } from '../helpers/cli.js';
import { blogSite } from '../helpers/cli-transfer.js';
import { filesUnder, sha256, tarOf, untar } from '../helpers/transfer.js';

/** The archive's entries checked against its manifest: the manifest first, every listed file with its digest. */
async function expectValidArchive(bytes: Buffer, packageDigest: string) {
  const entries = await untar(bytes);
  expect(entries[0].name).toBe('manifest.json');
  expect(`sha256:${sha256(entries[0].data)}`).toBe(packageDigest);
  const manifest = JSON.parse(entries[0].data.toString('utf8'));
  expect(entries.slice(1).map((e) => e.name)).toEqual(manifest.files.map((f: any) => f.path));
  for (const [i, f] of manifest.files.entries()) {
    expect(entries[i + 1].data.length).toBe(f.size);
    expect(sha256(entries[i + 1].data)).toBe(f.sha256);
  }
  return manifest;
}

const leftovers = (site: CliSite) => readdirSync(site.dir).filter((f) => f.endsWith('.part'));

describeEachTarget('cms transfer', (kind) => {
  it('exports the site to a checked archive whose manifest matches the package digest', async () => {
    const { site, image } = await blogSite(kind);
    const res = await site.run(['transfer', 'export', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = res.json();
    expect(out.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(out.archive).toBe(join(site.dir, `site-${out.id}.tar`));
    expect(out.packageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(out.totals.media).toEqual({ count: 1, bytes: image.size });
    expect(out.options).toEqual({ comments: true });
    const bytes = readFileSync(out.archive);
    expect(out.archiveBytes).toBe(bytes.length);
    const manifest = await expectValidArchive(bytes, out.packageDigest);
    expect(manifest.files.map((f: any) => f.path)).toContain(`media/${image.id}.png`);
    expect(out.verified).toEqual({
      files: manifest.files.length,
      bytes: manifest.files.reduce((a: number, f: any) => a + f.size, 0),
    });
    // Readable by its owner only (it holds users' addresses), and no temporary file left.
    expect(statSync(out.archive).mode & 0o777).toBe(0o600);
    expect(leftovers(site)).toEqual([]);
    // Progress and the target on stderr; stdout is the JSON document alone.
    expect(res.stderr).toContain('Target: ');
    expect(res.stderr).toContain(`Export ${out.id} started: `);
    expect(res.stderr).toContain(`Export ${out.id} complete: `);
    expect(res.stderr).toContain('checking it against the manifest');
    // The service agrees it is complete, with that digest.
    expect((await site.cms.services.transfer.exports.get(systemActor, out.id)).packageDigest).toBe(out.packageDigest);

    // A summary for people; --no-comments; a folder as --out.
    const text = await site.run(['transfer', 'export', '--no-comments', '--out', '.']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^archive +\/.*site-[0-9A-Z]{26}\.tar \(.+\)\npackage digest +sha256:[0-9a-f]{64}\n/);
    expect(text.stdout).toMatch(/\ncomments +left out\n/);
    expect(text.stdout).toMatch(/\nverified +\d+ files, .+: sizes and SHA-256 match the manifest\n/);
    const second = readFileSync(text.stdout.match(/^archive +(\S+)/)![1]);
    expect((await expectValidArchive(second, text.stdout.match(/sha256:[0-9a-f]{64}/)![0])).options).toEqual({
      comments: false,
    });
  });

  it('writes the archive alone to stdout with --out -, progress on stderr', async () => {
    const { site } = await blogSite(kind);
    const res = await site.run(['transfer', 'export', '--out', '-']);
    expect(res.code, res.stderr).toBe(0);
    const digest = res.stderr.match(/package digest +(sha256:[0-9a-f]{64})/)![1];
    await expectValidArchive(res.stdoutBytes, digest);
    expect(res.stderr).toMatch(/Export [0-9A-Z]{26} started: \d+ records/);
    expect(res.stderr).toContain('archive         stdout (');
    expect(res.stderr).toContain('Downloading the archive');
    expect(readdirSync(site.dir).filter((f) => f.endsWith('.tar') || f.endsWith('.part'))).toEqual([]);
    // Both would use stdout.
    const both = await site.run(['transfer', 'export', '--out', '-', '--json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--json and --out - both write to stdout');
    expect((await site.run(['transfer', 'export', '--out', 'no/such/folder/site.tar'])).code).toBe(2);
    // --quiet: no progress, only the summary.
    const quiet = await site.run(['-q', 'transfer', 'export', '--out', '-']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('Target:');
    expect(quiet.stderr).not.toContain('started');
    expect(quiet.stderr).toMatch(/^archive +stdout/);
  });

  it('lists exports with paging and downloads one again, refusing what is not complete', async () => {
    const { site } = await blogSite(kind);
    const first = (await site.run(['transfer', 'export', '--json'])).json();
    const second = (await site.run(['transfer', 'export', '--json', '--no-comments'])).json();

    const table = await site.run(['transfer', 'exports']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID +STATE +CREATED +RECORDS +FILES +BYTES\n/);
    expect(table.stdout.indexOf(second.id)).toBeLessThan(table.stdout.indexOf(first.id));
    expect(table.stdout).toMatch(new RegExp(`${first.id} +complete +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +\\d+ +\\d+ +`));
    const page = await site.run(['transfer', 'exports', '--limit', '1', '--json']);
    expect(page.json().items.map((e: any) => e.id)).toEqual([second.id]);
    const rest = await site.run(['transfer', 'exports', '--cursor', page.json().nextCursor, '--json']);
    expect(rest.json()).toEqual({ items: [expect.objectContaining({ id: first.id, state: 'complete' })] });
    const all = await site.run(['transfer', 'exports', '--all', '--limit', '1', '--json']);
    expect(all.json().items.map((e: any) => e.id)).toEqual([second.id, first.id]);
    expect(all.stderr).toContain('… 2 exports, done');

    const again = await site.run(['transfer', 'download', first.id, '--out', 'again.tar', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ id: first.id, packageDigest: first.packageDigest, verified: first.verified });
    expect(readFileSync(join(site.dir, 'again.tar')).equals(readFileSync(first.archive))).toBe(true);

    const missing = await site.run(['transfer', 'download', '01J00000000000000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('[NOT_FOUND]');
    const bad = await site.run(['transfer', 'download', 'nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('[VALIDATION_ERROR]');
    const running = await site.cms.services.transfer.exports.start(systemActor, { comments: true });
    const early = await site.run(['transfer', 'download', running.id]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('[INVALID_STATE]');
    expect(readdirSync(site.dir).filter((f) => f.includes(running.id) || f.endsWith('.part'))).toEqual([]);
  });

  it('keeps no file when the archive does not match its manifest', async () => {
    const { site } = await blogSite(kind);
    const done = (await site.run(['transfer', 'export', '--json'])).json();
    // Damage one stored record file, keeping its size: the site serves it, the check catches it.
    const [stored] = filesUnder(site.dir, /\.ndjson$/);
    const bytes = readFileSync(stored);
    bytes[0] = bytes[0] === 0x7b ? 0x5b : 0x7b;
    writeFileSync(stored, bytes);
    const res = await site.run(['transfer', 'download', done.id, '--out', 'damaged.tar']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Error: The archive does not match its manifest: records\/.+ has SHA-256 [0-9a-f]{64}/);
    expect(existsSync(join(site.dir, 'damaged.tar'))).toBe(false);
    expect(leftovers(site)).toEqual([]);
  });

  it('shows the capabilities', async () => {
    const site = await cliSite(kind);
    const res = await site.run(['transfer', 'capabilities']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^release +\S+\nschema version +\S+\npackage format +cms-site-package 1\n/);
    expect(res.stdout).toContain('export options  comments (default true)');
    const json = await site.run(['transfer', 'capabilities', '--json']);
    expect(json.json()).toMatchObject({
      package: { format: 'cms-site-package', formatVersion: 1, archive: 'application/x-tar' },
      storage: 'file',
    });
  });

  it('refuses callers who are not administrators, or tokens without the scope', async () => {
    const site = await cliSite(kind);
    const editor = await site.user(ROLES.EDITOR);
    for (const args of [
      ['transfer', 'export'],
      ['transfer', 'exports'],
      ['transfer', 'capabilities'],
    ]) {
      const res = await site.run(args, { token: editor.token });
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr).toContain(
        'Error: [INSUFFICIENT_PERMISSIONS] Only administrators may export or import the site',
      );
      expect(res.stdout).toBe('');
    }
    expect(readdirSync(site.dir).filter((f) => f.endsWith('.tar') || f.endsWith('.part'))).toEqual([]);
    if (kind === 'http') {
      const reader = await site.user(ROLES.ADMIN, ['content:read']);
      const res = await site.run(['transfer', 'export'], { token: reader.token });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('[INSUFFICIENT_SCOPE]');
      const scoped = await site.user(ROLES.ADMIN, ['transfer:export']);
      const ok = await site.run(['transfer', 'export', '--json'], { token: scoped.token });
      expect(ok.code, ok.stderr).toBe(0);
    } else {
      // Locally, without --as, the system exports (bootstrap and recovery, like schema and users).
      const res = await site.run(['transfer', 'export', '--json'], { as: null });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('as the system');
    }
  });
});

describe('cms transfer: help, archive check, progress', () => {
  it('has --help with examples', async () => {
    const dir = '/tmp';
    for (const path of [['transfer'], ['transfer', 'export'], ['transfer', 'exports'], ['transfer', 'download']]) {
      const res = await runIn(dir, [...path, '--help'], {});
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/\nExamples:\n {2}\$ [^\n]*cms /);
    }
    const help = await runIn(dir, ['transfer', 'export', '--help'], {});
    expect(help.stdout).toContain('--no-comments');
    expect(help.stdout).toContain('-o, --out <file>');
  });

  it('refuses archives that differ from their manifest', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cms-transfer-check-'));
    const records = Buffer.from('{"id":1}\n');
    const manifest = (files: unknown[]) =>
      Buffer.from(JSON.stringify({ format: 'cms-site-package', formatVersion: 1, files }));
    const good = manifest([{ path: 'records/users/00001.ndjson', kind: 'users', size: 9, sha256: sha256(records) }]);
    const tar = async (entries: Array<[string, Buffer]>) => {
      const file = join(dir, `${Math.random().toString(36).slice(2)}.tar`);
      writeFileSync(file, await tarOf(entries));
      return file;
    };
    const digest = `sha256:${sha256(good)}`;
    const ok = await tar([
      ['manifest.json', good],
      ['records/users/00001.ndjson', records],
    ]);
    expect(await verifyArchiveFile(ok, digest)).toEqual({ files: 1, bytes: 9 });
    const cases: Array<[Array<[string, Buffer]>, string, RegExp]> = [
      [[['manifest.json', good]], digest, /1 file listed in manifest.json missing from the archive/],
      [
        [
          ['records/users/00001.ndjson', records],
          ['manifest.json', good],
        ],
        digest,
        /starts with records\/users\/00001.ndjson/,
      ],
      [
        [
          ['manifest.json', good],
          ['records/users/00001.ndjson', Buffer.from('{"id":2}\n')],
        ],
        digest,
        /records\/users\/00001.ndjson has SHA-256/,
      ],
      [
        [
          ['manifest.json', good],
          ['records/users/00001.ndjson', records],
          ['records/extra/00001.ndjson', records],
        ],
        digest,
        /records\/extra\/00001.ndjson is not listed/,
      ],
      [[['manifest.json', good]], `sha256:${'0'.repeat(64)}`, /is not the package digest/],
    ];
    for (const [entries, expected, message] of cases) {
      await expect(verifyArchiveFile(await tar(entries), expected)).rejects.toThrow(message);
    }
  });

  it('advances an export as the site asks and fails with its error code', async () => {
    const base = {
      kind: 'export' as const,
      stage: 'records',
      packageDigest: null,
      planDigest: null,
      error: null,
      options: { comments: true },
      totals: null,
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-01-02T03:04:05.678Z',
      completedAt: null,
      startedBy: null,
    };
    const answers = [
      { ...base, id: 'E1', state: 'running', progress: { done: 10, total: 30 }, nextRequestInMs: 20 },
      { ...base, id: 'E1', state: 'running', progress: { done: 20, total: 30 }, nextRequestInMs: 0 },
      {
        ...base,
        id: 'E1',
        state: 'failed',
        stage: null,
        progress: { done: 20, total: 30 },
        error: { code: 'STORAGE_ERROR', message: 'The disk is full' },
        nextRequestInMs: null,
      },
    ];
    const asked: number[] = [];
    const target = {
      transfer: {
        exports: {
          advance: async (id: string) => {
            expect(id).toBe('E1');
            asked.push(Date.now());
            return answers[asked.length - 1];
          },
        },
      },
    } as unknown as Target;
    const steps: string[] = [];
    const started = {
      ...base,
      id: 'E1',
      state: 'running' as const,
      progress: { done: 0, total: 30 },
      nextRequestInMs: 0,
    };
    const failed = await runExport(target, started, { tick: () => {}, step: (t) => steps.push(t) }).catch((e) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ code: 'STORAGE_ERROR', message: 'The disk is full', details: { exportId: 'E1' } });
    expect(asked).toHaveLength(3);
    // The second advance waits the 20 ms the site asked for.
    expect(asked[1] - asked[0]).toBeGreaterThanOrEqual(15);
    expect(steps).toEqual([]);
  });

  it('shows progress on a terminal at most once a second, elsewhere only milestones', () => {
    let clock = 0;
    const lines = (tty: boolean) => {
      let text = '';
      const io = {
        stdout: { write() {} },
        stderr: { isTTY: tty, write: (t: string) => (text += t) },
        env: {},
        cwd: '/',
        readStdin: async () => '',
      };
      const progress = progressOn(new Output(io), () => clock);
      for (let i = 0; i < 30; i++) {
        progress.tick(`tick ${i}`);
        clock += 100;
      }
      progress.step('done');
      return text.split('\n').filter(Boolean);
    };
    expect(lines(true)).toEqual(['tick 0', 'tick 10', 'tick 20', 'done']);
    expect(lines(false)).toEqual(['done']);
  });
});
