import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { runIn } from '../helpers/cli.js';
import { ROOT } from '../helpers/process.js';

const dir = mkdtempSync(join(tmpdir(), 'cms-cli-program-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { CMS_DATA_DIR: dir, CMS_LOG_LEVEL: 'silent', CMS_CREDENTIALS_FILE: join(dir, 'none.json') };
const run = (args: string[]) => runIn(dir, args, env);

/** Every command path of the program, e.g. ["content", "list"]. */
function commandPaths(): string[][] {
  const silent = { stdout: { write() {} }, stderr: { write() {} }, env, cwd: dir, readStdin: async () => '' };
  const out: string[][] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help') continue;
      out.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(buildProgram(silent), []);
  return out;
}

const leaves = () =>
  commandPaths().filter((p, _, all) => !all.some((o) => o.length > p.length && p.every((w, i) => o[i] === w)));

describe('cms: help, usage errors and exit codes', () => {
  it('has --help with examples on every command', async () => {
    const paths = commandPaths();
    expect(paths.length).toBeGreaterThan(30);
    for (const path of [[], ...paths]) {
      const res = await run([...path, '--help']);
      expect(res.code, path.join(' ')).toBe(0);
      expect(res.stdout, `cms ${path.join(' ')} --help`).toMatch(/\nExamples:\n {2}\$ [^\n]*cms /);
    }
  });

  it('exits 2 on usage errors, 1 on failures, 0 on --version', async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: cms');
    expect((await run(['bogus'])).code).toBe(2);
    expect((await run(['content', 'list'])).stderr).toContain("missing required argument 'collection'");
    expect((await run(['content', 'list'])).code).toBe(2);
    expect((await run(['content', 'list', 'posts', '--colour'])).code).toBe(2);
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const noSite = await run(['--token', 'cms_pat_x', 'content', 'list', 'posts']);
    expect(noSite.code).toBe(2);
    expect(noSite.stderr).toContain('--token needs --url');
    const asRemote = await run([
      '--url',
      'http://127.0.0.1:9',
      '--token',
      'x',
      '--as',
      'a@b.c',
      'content',
      'list',
      'p',
    ]);
    expect(asRemote.code).toBe(2);
    const badUrl = await run(['--url', 'ftp://example.com', '--token', 'x', 'schema', 'list']);
    expect(badUrl.code).toBe(2);
    const unreachable = await run(['--url', 'http://127.0.0.1:9', '--token', 'x', 'schema', 'list']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^Target: http:\/\/127\.0\.0\.1:9 \(token\)\nError: Cannot reach http:\/\/127\.0\.0\.1:9: /,
    );
    // Something that is not a CMS at that address.
    const other = createServer((req, res) => {
      res.writeHead(req.url?.includes('/content/') ? 200 : 404, { 'content-type': 'text/html' });
      res.end('<html>not a CMS</html>');
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', () => done()));
    const at = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const html = await run(['--url', at, '--token', 'x', 'content', 'list', 'posts']);
      expect(html.code).toBe(1);
      expect(html.stderr).toContain('Error: The site did not answer with JSON: is --url the address of a CMS?');
      const missing = await run(['--url', at, '--token', 'x', 'schema', 'list']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('[HTTP_404] The site answered HTTP 404 without an error envelope');
    } finally {
      other.closeAllConnections();
      other.close();
    }
    const notSignedIn = await run(['--remote', 'schema', 'list']);
    expect(notSignedIn.code).toBe(1);
    expect(notSignedIn.stderr).toContain('Not signed in: run cms login --url <site URL>, or pass --token');
    const badConfig = await runIn(dir, ['schema', 'list'], { ...env, CMS_DATABASE_URL: 'mysql://nope' });
    expect(badConfig.code).toBe(2);
    expect(await run(['serve', '--url', 'http://127.0.0.1:9'])).toMatchObject({ code: 2 });
  });

  it('lists every command in the README and in docs/cli.md', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const docs = readFileSync(resolve(ROOT, 'docs/cli.md'), 'utf8');
    for (const path of leaves()) {
      expect(readme, `README lists cms ${path.join(' ')}`).toContain(`\`cms ${path.join(' ')}`);
      expect(docs, `docs/cli.md lists cms ${path.join(' ')}`).toContain(`cms ${path.join(' ')}`);
    }
  });
});

describe('cms completion', () => {
  const complete = (script: string, words: string[]) => {
    const line = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cms_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const res = spawnSync('bash', ['--norc', '-c', line], { cwd: dir, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    return res.stdout.split('\n').filter(Boolean);
  };

  it('completes commands, subcommands, options and files in bash', async () => {
    const res = await run(['completion', 'bash']);
    expect(res.code).toBe(0);
    const script = res.stdout;
    expect(complete(script, ['cms', 'con'])).toEqual(['content']);
    expect(complete(script, ['cms', 'content', ''])).toEqual(
      expect.arrayContaining(['list', 'get', 'create', 'update', 'publish', 'translations', 'delete']),
    );
    expect(complete(script, ['cms', '--url', 'https://x', 'sch'])).toEqual(['schema']);
    expect(complete(script, ['cms', 'content', 'list', '--li'])).toEqual(['--limit']);
    expect(complete(script, ['cms', 'content', 'list', 'posts', '--ur'])).toEqual(['--url']);
    writeFileSync(join(dir, 'schema-export.json'), '{}');
    expect(complete(script, ['cms', 'schema', 'apply', 'schema-e'])).toEqual(['schema-export.json']);
    expect(complete(script, ['cms', 'content', 'create', 'posts', '--file', 'schema-'])).toEqual([
      'schema-export.json',
    ]);
    expect(complete(script, ['cms', 'content', 'list', '--limit', ''])).toEqual([]);
  });

  const zsh = spawnSync('zsh', ['--version']).status === 0;
  it.skipIf(!zsh)(
    'writes a zsh script that zsh parses and completes with descriptions',
    async () => {
      const res = await run(['completion', 'zsh']);
      expect(res.stdout.startsWith('#compdef cms\n')).toBe(true);
      writeFileSync(join(dir, '_cms'), res.stdout);
      const check = spawnSync('zsh', ['-n', join(dir, '_cms')], { encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
      // Complete `cms content <TAB>` in an interactive zsh on a pseudo-terminal. The driver waits
      // for what it expects, never for a fixed time: first the marker the set-up line prints once
      // compinit and the script are loaded (READY$((6*7)) is echoed as typed, printed as READY42),
      // then the descriptions of the completion listing; each wait is bounded by $SECONDS.
      const driver = [
        'zmodload zsh/zpty zsh/zselect',
        'zpty z zsh -f -i',
        'wait_for() {',
        '  local deadline=$(( SECONDS + 60 ))',
        '  while (( SECONDS < deadline )); do',
        '    if zpty -r -t z chunk; then all+=$chunk; else zselect -t 5; fi',
        '    [[ $all == *$~1* ]] && return 0',
        '    zpty -t z || break',
        '  done',
        '  return 1',
        '}',
        'all=""',
        `zpty -w z 'PS1="> "; autoload -U compinit; compinit -u; source ${join(dir, '_cms')}; print READY$((6*7))'`,
        'wait_for READY42 || { print -r -- "no prompt: $all"; exit 1 }',
        'all=""',
        "zpty -w z $'cms content \\t\\t'",
        'wait_for \'(translations*List entries|List entries*translations)\' || { print -r -- "no listing: $all"; exit 1 }',
        'print -r -- "$all"',
        'zpty -d z',
      ].join('\n');
      const shown = spawnSync('zsh', ['-f', '-c', driver], { encoding: 'utf8', timeout: 150_000 });
      expect(shown.status, shown.stdout).toBe(0);
      expect(shown.stdout).toMatch(/list +-- List entries/);
      expect(shown.stdout).toMatch(/translations +-- The translation group/);
    },
    180_000,
  );

  it('refuses an unknown shell', async () => {
    expect((await run(['completion', 'fish'])).code).toBe(2);
  });
});

describe('cms start-up', () => {
  /** Run the real entry point with a resolve hook that lists every module the process loads. */
  function traced(args: string[]): Promise<{ code: number | null; modules: string[]; ms: number }> {
    const trace = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(trace, '');
    const started = Date.now();
    return new Promise((done) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
          '--import',
          pathToFileURL(resolve(ROOT, 'test/helpers/trace-imports.mjs')).href,
          resolve(ROOT, 'src/cli/index.ts'),
          ...args,
        ],
        {
          cwd: dir,
          env: {
            ...process.env,
            ...env,
            CMS_TRACE_FILE: trace,
            CMS_DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
          },
        },
      );
      child.on('close', (code) =>
        done({ code, ms: Date.now() - started, modules: readFileSync(trace, 'utf8').split('\n') }),
      );
    });
  }
  const heavy = (modules: string[]) =>
    modules.filter((m) =>
      /node_modules\/(kysely|better-sqlite3|pg|hono|@hono|pino|zod)\/|\/src\/(index|db|services|http)\b/.test(m),
    );

  it('answers --help and remote commands without loading the server or a database driver', async () => {
    const help = await traced(['--help']);
    expect(help.code).toBe(0);
    expect(help.modules.some((m) => m.includes('/src/cli/program.ts'))).toBe(true);
    expect(heavy(help.modules)).toEqual([]);
    const remote = await traced(['--url', 'http://127.0.0.1:9', '--token', 'x', 'content', 'list', 'posts']);
    expect(remote.code).toBe(1);
    expect(remote.modules.some((m) => m.includes('/node_modules/openapi-fetch/'))).toBe(true);
    expect(heavy(remote.modules)).toEqual([]);
    const transfer = await traced(['--url', 'http://127.0.0.1:9', '--token', 'x', 'transfer', 'export', '--out', '-']);
    expect(transfer.code).toBe(1);
    expect(heavy(transfer.modules)).toEqual([]);
    // The local target does load them: the check above can fail.
    const local = await traced(['schema', 'list']);
    expect(heavy(local.modules).length).toBeGreaterThan(0);
  }, 60_000);
});
