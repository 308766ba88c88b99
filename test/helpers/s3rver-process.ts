import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Fixture } from './media.js';

/**
 * s3rver in a child process started with OpenSSL's legacy provider. s3rver encrypts its
 * ListObjectsV2 continuation tokens with DES, which the OpenSSL 3 of Node 20 refuses without
 * that provider: in-process (startS3) any listing longer than one page answers 500. A test of
 * paging runs this one instead.
 */
export async function startPagingS3(): Promise<S3Fixture & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-s3rver-paging-'));
  const entry = createRequire(import.meta.url).resolve('s3rver');
  const script = `
    const S3rver = require(${JSON.stringify(entry)});
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(dir)},
      configureBuckets: [{ name: 'media', configs: [] }] })
      .run()
      .then(({ port }) => process.stdout.write('PORT ' + port + '\\n'));
  `;
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /PORT (\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before it listened`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'media',
    dir,
    async stop() {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
