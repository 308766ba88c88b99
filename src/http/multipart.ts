import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { CmsError, validationError } from '../core/errors.js';
import { isStorableText } from '../core/text.js';
import { bodyWithBytes } from './request-body.js';

/** One file part, streamed: the handler must consume `stream` (or fail). */
export interface FilePart {
  name: string;
  filename: string;
  mimeType: string;
  stream: Readable;
}

export interface MultipartRules<T> {
  /** Names of the file parts accepted (each at most once). */
  files: readonly string[];
  /** Names of the text parts accepted. */
  fields: readonly string[];
  /** Longest text part, in bytes. */
  maxFieldBytes: number;
  /** Receives each file part; what it returns is handed back, and given to `discard` when the request fails. */
  onFile(part: FilePart): Promise<T>;
  discard(value: T): Promise<void>;
}

export interface MultipartResult<T> {
  fields: Record<string, string>;
  files: Record<string, T>;
}

const issue = (path: string, code: string, message: string) =>
  validationError(message, { issues: [{ path: [path], code, message }] });

/**
 * Parse a `multipart/form-data` body as it streams in (busboy): text parts are
 * collected (a NUL or an unpaired surrogate in one is a 400 naming it, as in a
 * JSON body), file parts go to `onFile` one after another. Nothing is buffered
 * whole. On any failure the body stops being read and every file already
 * received is discarded.
 */
export async function parseMultipart<T>(request: Request, rules: MultipartRules<T>): Promise<MultipartResult<T>> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new CmsError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the file as multipart/form-data (a part named "file")',
      undefined,
    );
  }
  // No bytes at all is a missing upload, not a malformed form (however the client sent nothing).
  const source = await bodyWithBytes(request);
  if (!source) throw new CmsError('NO_FILE', 'The request has no body');
  return parseParts(source, contentType, rules);
}

function parseParts<T>(source: Readable, contentType: string, rules: MultipartRules<T>): Promise<MultipartResult<T>> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        files: rules.files.length,
        fields: rules.fields.length,
        // busboy reports `partsLimit` when the count *reaches* the limit (files and fields: when exceeded),
        // so one more than every accepted part: a body carrying each accepted part once is not refused.
        parts: rules.files.length + rules.fields.length + 1,
        fieldSize: rules.maxFieldBytes,
        fieldNameSize: 100,
      },
    });
  } catch {
    source.destroy();
    return Promise.reject(issue('file', 'invalid_multipart', 'Malformed multipart/form-data request'));
  }
  const fields: Record<string, string> = {};
  const files: Record<string, T> = {};
  const pending: Array<Promise<void>> = [];
  /** File streams still being read: a failure must end them, or their consumers would wait forever. */
  const open = new Set<Readable>();
  let failure: unknown = null;

  return new Promise<MultipartResult<T>>((resolve, reject) => {
    const fail = (err: unknown) => {
      if (failure) return;
      failure = err;
      source.unpipe(parser);
      source.destroy();
      parser.removeAllListeners('file');
      for (const stream of open) stream.destroy(new Error('upload interrupted'));
      // Whatever was received is dropped, also files still being written when the failure came.
      Promise.allSettled(pending).then(async () => {
        for (const value of Object.values(files)) await rules.discard(value).catch(() => {});
        reject(err);
      });
    };
    parser.on('file', (name, stream, info) => {
      if (!rules.files.includes(name) || name in files) {
        stream.resume();
        fail(issue(name, 'unexpected_part', `Unexpected file part "${name}"`));
        return;
      }
      open.add(stream);
      stream.once('close', () => open.delete(stream));
      // `fail` may destroy this stream before `onFile` has piped it anywhere (it can still be awaiting its
      // own set-up); without a listener of ours that error would be thrown as an uncaught exception and
      // end the process. The consumer still sees the failure: a destroyed stream fails its pipeline.
      stream.on('error', () => {});
      const part = { name, filename: info.filename ?? '', mimeType: info.mimeType ?? '', stream };
      const done = rules.onFile(part).then(
        (value) => {
          if (failure) return rules.discard(value).catch(() => {});
          files[name] = value;
        },
        (err) => {
          stream.resume();
          fail(err);
        },
      );
      pending.push(done);
    });
    parser.on('field', (name, value, info) => {
      if (!rules.fields.includes(name) || name in fields) {
        fail(issue(name, 'unexpected_part', `Unexpected part "${name}"`));
        return;
      }
      if (info.valueTruncated) {
        fail(issue(name, 'too_big', `"${name}" is longer than ${rules.maxFieldBytes} bytes`));
        return;
      }
      // The JSON body rule (src/core/text.ts) for every multipart route: both engines would store it differently.
      if (!isStorableText(value)) {
        fail(issue(name, 'invalid_text', `"${name}" must not contain NUL characters (U+0000) or unpaired surrogates`));
        return;
      }
      fields[name] = value;
    });
    const limited = (what: string) => () => fail(issue('file', 'too_many_parts', `Too many ${what} in the request`));
    parser.on('partsLimit', limited('parts'));
    parser.on('filesLimit', limited('files'));
    parser.on('fieldsLimit', limited('fields'));
    parser.on('error', () => fail(issue('file', 'invalid_multipart', 'Malformed multipart/form-data request')));
    // The client went away or cut the body short: nothing to store, and not the service's failure.
    source.on('error', () => fail(new CmsError('NO_FILE', 'The upload was interrupted before the file was complete')));
    parser.on('close', () => {
      Promise.all(pending).then(() => {
        if (!failure) resolve({ fields, files });
      });
    });
    source.pipe(parser);
  });
}
