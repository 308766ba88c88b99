import { describe, expect, it } from 'vitest';
import { parseMultipart } from '../../../src/http/multipart.js';
import { waitFor } from '../../helpers/wait.js';

const BOUNDARY = 'xYzBoundary';

function body(parts: string[]): Request {
  const text = `${parts.map((p) => `--${BOUNDARY}\r\n${p}\r\n`).join('')}--${BOUNDARY}--\r\n`;
  return new Request('http://localhost/upload', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: text,
  });
}

const filePart = (name: string, content: string) =>
  `Content-Disposition: form-data; name="${name}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${content}`;
const fieldPart = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

describe('parseMultipart', () => {
  it('refuses a bad part after a file whose consumer has not started reading, without an uncaught error', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const discarded: string[] = [];
      const result = parseMultipart(body([filePart('file', 'x'.repeat(10_000)), fieldPart('intruder', 'v')]), {
        files: ['file'],
        fields: ['alt'],
        maxFieldBytes: 1000,
        async onFile(part) {
          // Still setting up when the bad part arrives: start reading only once the refusal has ended the part.
          await waitFor(() => part.stream.destroyed, { what: 'the bad part to end the file part' });
          const chunks: Buffer[] = [];
          for await (const chunk of part.stream) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks).toString();
        },
        async discard(value) {
          discarded.push(value);
        },
      });
      await expect(result).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      // An unhandled stream error is thrown on the tick after the destroy, long before the refusal,
      // which waited for the consumer; one more turn of the event loop for good measure.
      await new Promise((r) => setImmediate(r));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('hands back text and file parts of a well-formed body', async () => {
    const result = await parseMultipart(body([fieldPart('alt', 'A cat'), filePart('file', 'hello')]), {
      files: ['file'],
      fields: ['alt'],
      maxFieldBytes: 1000,
      async onFile(part) {
        const chunks: Buffer[] = [];
        for await (const chunk of part.stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString();
      },
      async discard() {},
    });
    expect(result).toEqual({ fields: { alt: 'A cat' }, files: { file: 'hello' } });
  });

  it('refuses a part beyond the accepted ones', async () => {
    const parse = parseMultipart(body([fieldPart('alt', 'a'), filePart('file', 'x'), fieldPart('alt', 'b')]), {
      files: ['file'],
      fields: ['alt'],
      maxFieldBytes: 1000,
      async onFile(part) {
        part.stream.resume();
        return 'stored';
      },
      async discard() {},
    });
    await expect(parse).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
