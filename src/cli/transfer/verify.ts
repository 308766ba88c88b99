import { createHash, type Hash } from 'node:crypto';
import { CliError } from '../errors.js';

/**
 * Checks a site package archive as its bytes go by, never holding more
 * than manifest.json: the first entry must be manifest.json whose SHA-256
 * is the export's package digest, and every other entry a file the manifest
 * lists, with the size and SHA-256 it gives; at the end every listed file
 * must have been seen. tar-stream is loaded only when a check starts (so
 * `cms --help` stays light).
 */
export interface VerifiedPackage {
  /** Package files checked (manifest.json not counted). */
  files: number;
  /** Their bytes. */
  bytes: number;
}

export interface PackageCheck {
  /** Feed the archive's next bytes (resolves once the checker can take more). */
  write(chunk: Uint8Array): Promise<void>;
  /** The archive ended: the result, or why it does not match its manifest. */
  end(): Promise<VerifiedPackage>;
  /** Stop early (the download failed). */
  abort(): void;
}

/** Larger than any manifest a site writes or an import accepts (32 MiB). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

interface Listed {
  size: number;
  sha256: string;
  seen: boolean;
}

const mismatch = (text: string) => new CliError(`The archive does not match its manifest: ${text}`);

/** The files a manifest lists, by path; anything that is not a site package manifest is refused. */
function listedFiles(manifestText: string): Map<string, Listed> {
  let manifest: { format?: unknown; files?: unknown };
  try {
    manifest = JSON.parse(manifestText) as typeof manifest;
  } catch {
    throw mismatch('manifest.json is not JSON');
  }
  if (manifest?.format !== 'cms-site-package' || !Array.isArray(manifest.files)) {
    throw mismatch('manifest.json is not a site package manifest');
  }
  const files = new Map<string, Listed>();
  for (const f of manifest.files as Array<{ path?: unknown; size?: unknown; sha256?: unknown }>) {
    if (typeof f?.path !== 'string' || typeof f.size !== 'number' || typeof f.sha256 !== 'string') {
      throw mismatch('manifest.json lists a file without path, size and sha256');
    }
    if (files.has(f.path)) throw mismatch(`manifest.json lists ${f.path} twice`);
    files.set(f.path, { size: f.size, sha256: f.sha256, seen: false });
  }
  return files;
}

export async function checkPackage(packageDigest: string): Promise<PackageCheck> {
  const { extract: tarExtract } = await import('tar-stream');
  const extract = tarExtract();
  let files: Map<string, Listed> | null = null;
  let failure: Error | null = null;
  const result: VerifiedPackage = { files: 0, bytes: 0 };

  const fail = (err: Error) => {
    failure ??= err;
    extract.destroy(failure);
  };

  extract.on('entry', (header, stream, next) => {
    const name = header.name;
    const isManifest = files === null;
    let listed: Listed | undefined;
    // Destroying the extractor after a mismatch fails the entry too: it is reported once, as the mismatch.
    stream.on('error', (err: Error) => fail(err));
    if (header.type !== 'file') return fail(mismatch(`${name} is not a file (${header.type})`));
    if (isManifest) {
      if (name !== 'manifest.json') return fail(mismatch(`the archive starts with ${name}, not manifest.json`));
      if ((header.size ?? 0) > MAX_MANIFEST_BYTES) return fail(mismatch('manifest.json is too large'));
    } else {
      listed = files?.get(name);
      if (!listed) return fail(mismatch(`${name} is not listed in manifest.json`));
      if (listed.seen) return fail(mismatch(`${name} is in the archive twice`));
      listed.seen = true;
    }
    const hash: Hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
      if (isManifest) chunks.push(chunk);
    });
    stream.on('end', () => {
      const sha256 = hash.digest('hex');
      if (isManifest) {
        if (`sha256:${sha256}` !== packageDigest) {
          return fail(
            mismatch(`the SHA-256 of manifest.json (sha256:${sha256}) is not the package digest ${packageDigest}`),
          );
        }
        try {
          files = listedFiles(Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          return fail(err as Error);
        }
      } else if (listed) {
        if (size !== listed.size) return fail(mismatch(`${name} has ${size} bytes, the manifest says ${listed.size}`));
        if (sha256 !== listed.sha256) {
          return fail(mismatch(`${name} has SHA-256 ${sha256}, the manifest says ${listed.sha256}`));
        }
        result.files += 1;
        result.bytes += size;
      }
      next();
    });
  });

  /** Resolves on the event, or once the checker failed or closed (so a writer never waits forever). */
  const settle = (event: 'drain' | 'finish') =>
    new Promise<void>((resolve) => {
      const done = () => {
        extract.off(event, done);
        extract.off('close', done);
        resolve();
      };
      extract.once(event, done);
      extract.once('close', done);
    });
  extract.on('error', (err: Error) => {
    failure ??= err;
  });

  return {
    async write(chunk) {
      if (failure) throw failure;
      if (!extract.write(chunk)) await settle('drain');
      if (failure) throw failure;
    },
    async end() {
      if (failure) throw failure;
      const finished = settle('finish');
      extract.end();
      await finished;
      if (failure) throw failure;
      if (files === null) throw mismatch('the archive holds no manifest.json');
      const missing = [...(files as Map<string, Listed>).entries()].filter(([, f]) => !f.seen).map(([path]) => path);
      if (missing.length) {
        throw mismatch(
          `${missing.length} file${missing.length === 1 ? '' : 's'} listed in manifest.json missing from the archive (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
        );
      }
      return result;
    },
    abort() {
      extract.destroy();
    },
  };
}
