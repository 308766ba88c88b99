/**
 * The admin's tar header reader (admin/src/lib/ustar.ts), which the import
 * tab uses to upload a package archive as Blob slices: run in Node on
 * archives real writers made — tar-stream (what site exports use) and GNU
 * tar — including names split into ustar's prefix field, empty files, a
 * missing end-of-archive, damage, and the pax and GNU long-name extensions
 * it refuses.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack } from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { entryBlob, type TarEntry, TarFormatError, tarEntries } from '../../admin/src/lib/ustar.js';

async function packed(entries: Array<{ name: string; body: Buffer | string; pax?: Record<string, string> }>) {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => p.on('end', resolve));
  for (const e of entries) {
    const body = typeof e.body === 'string' ? Buffer.from(e.body) : e.body;
    // `pax` is a header tar-stream writes but its types leave out.
    const header = { name: e.name, size: body.length, mode: 0o644, mtime: new Date(0), pax: e.pax };
    p.entry(header as Parameters<typeof p.entry>[0], body);
  }
  p.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function read(bytes: Buffer | Uint8Array): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  for await (const e of tarEntries(new Blob([new Uint8Array(bytes)]))) out.push(e);
  return out;
}

async function refusal(bytes: Buffer | Uint8Array): Promise<string> {
  try {
    await read(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(TarFormatError);
    return (err as Error).message;
  }
  throw new Error('the archive was accepted');
}

const hasGnuTar = spawnSync('tar', ['--version']).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'cms-ustar-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('ustar header reader (admin import)', () => {
  it('finds every entry of a package-like archive with its size and the offsets of its bytes', async () => {
    const long = `records/entries/${'a'.repeat(60)}/${'b'.repeat(30)}/00001.ndjson`; // > 100 bytes: uses the prefix
    expect(long.length).toBeGreaterThan(100);
    const media = Buffer.alloc(1300, 7);
    const bytes = await packed([
      { name: 'manifest.json', body: '{"format":"cms-site-package"}' },
      { name: 'records/users/00001.ndjson', body: '' },
      { name: long, body: '{"id":1}\n' },
      { name: 'media/01J.png', body: media },
    ]);
    const entries = await read(bytes);
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['manifest.json', 29],
      ['records/users/00001.ndjson', 0],
      [long, 9],
      ['media/01J.png', 1300],
    ]);
    const blob = new Blob([new Uint8Array(bytes)]);
    expect(await entryBlob(blob, entries[0]).text()).toBe('{"format":"cms-site-package"}');
    expect(await entryBlob(blob, entries[2]).text()).toBe('{"id":1}\n');
    expect(Buffer.from(await entryBlob(blob, entries[3]).arrayBuffer()).equals(media)).toBe(true);
    expect(entries.every((e) => e.headerAt % 512 === 0 && e.start === e.headerAt + 512)).toBe(true);
  });

  it('accepts an archive without its end blocks, or with only one', async () => {
    const bytes = await packed([{ name: 'manifest.json', body: 'x'.repeat(600) }]);
    expect(bytes.length).toBe(512 + 1024 + 1024);
    expect((await read(bytes.subarray(0, 512 + 1024))).map((e) => e.name)).toEqual(['manifest.json']);
    expect((await read(bytes.subarray(0, 512 + 1024 + 512))).map((e) => e.name)).toEqual(['manifest.json']);
  });

  it('refuses what is not a tar archive, a damaged header and an archive cut short', async () => {
    expect(await refusal(Buffer.from('{"not":"a tar"}'))).toMatch(/not a tar archive/);
    expect(await refusal(Buffer.alloc(2048, 65))).toMatch(/not a tar archive/);
    const bytes = await packed([
      { name: 'manifest.json', body: '{}' },
      { name: 'media/x.png', body: Buffer.alloc(2000, 1) },
    ]);
    const damaged = Buffer.from(bytes);
    damaged[1024 + 10] ^= 0x20; // a byte of the second entry's name
    expect(await refusal(damaged)).toMatch(/header at byte 1024 does not match its checksum/);
    expect(await refusal(bytes.subarray(0, 1024 + 512 + 1000))).toMatch(/cut short: “media\/x.png” needs 2000 bytes/);
    expect(await refusal(bytes.subarray(0, 1024 + 100))).toMatch(/cut short in the middle of a header/);
  });

  it('refuses pax extended headers with a message that says what to do', async () => {
    const bytes = await packed([{ name: 'manifest.json', body: '{}', pax: { comment: 'repacked' } }]);
    expect(await refusal(bytes)).toMatch(/pax extended header .*use the archive as the export downloaded it/);
  });

  it.skipIf(!hasGnuTar)('reads GNU tar archives and refuses their long-name entries', async () => {
    const dir = join(scratch, 'gnu');
    mkdirSync(join(dir, 'records/users'), { recursive: true });
    writeFileSync(join(dir, 'manifest.json'), '{}');
    writeFileSync(join(dir, 'records/users/00001.ndjson'), 'u\n');
    const plain = join(scratch, 'plain.tar');
    const run = (...args: string[]) => expect(spawnSync('tar', args, { cwd: dir }).status).toBe(0);
    run('--format=ustar', '-cf', plain, 'manifest.json', 'records');
    // A directory entry is skipped; the files come in archive order.
    expect((await read(readFileSync(plain))).map((e) => e.name)).toEqual([
      'manifest.json',
      'records/users/00001.ndjson',
    ]);
    const longName = `${'n'.repeat(120)}.ndjson`;
    writeFileSync(join(dir, longName), 'z');
    const gnu = join(scratch, 'gnu.tar');
    run('--format=gnu', '-cf', gnu, 'manifest.json', longName);
    expect(await refusal(readFileSync(gnu))).toMatch(/GNU long name entry/);
  });
});
