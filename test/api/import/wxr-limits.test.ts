import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { readWxr } from '../../../src/services/import/wxr/read.js';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { waitFor } from '../../helpers/wait.js';
import { postExport } from '../../helpers/wxr.js';

/**
 * Decompression bombs and oversized elements: the export's XML (after gunzip)
 * and each record in it are bounded, the request is refused with 413
 * PAYLOAD_TOO_LARGE naming the limit and the place, and the process's memory
 * stays flat because reading stops as soon as a limit is passed.
 */

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Bomb</title><link>https://bomb.example.test</link>
`;
const TAIL = '\n</channel></rss>\n';

const MiB = 1024 * 1024;

/**
 * A gzip file of several members (gunzip reads them as one stream): the head,
 * then `times` copies of one member holding `chunk` (each compresses to about a
 * thousandth of its size), then the tail. Built in milliseconds, however large
 * the decompressed XML.
 */
function gzipBomb(head: string, chunk: Buffer, times: number, tail: string): Buffer {
  const member = gzipSync(chunk, { level: 9 });
  return Buffer.concat([gzipSync(head), ...Array<Buffer>(times).fill(member), gzipSync(tail)]);
}

/** One `<content:encoded>` of `mib` MiB of "A" inside one item. */
const contentBomb = (mib: number) =>
  gzipBomb(
    `${HEAD}<item><title>Big</title><wp:post_type>post</wp:post_type><content:encoded><![CDATA[`,
    Buffer.alloc(MiB, 'A'),
    mib,
    `]]></content:encoded></item>${TAIL}`,
  );

/** `count` small, valid posts: many records, each well under any element limit. */
function manyItems(count: number): Buffer {
  const items = Array.from(
    { length: 1000 },
    (_, i) =>
      `<item><title>Post ${i}</title><wp:post_id>${i}</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><content:encoded><![CDATA[<p>${'word '.repeat(100)}</p>]]></content:encoded></item>\n`,
  ).join('');
  return gzipBomb(HEAD, Buffer.from(items), Math.ceil(count / 1000), TAIL);
}

/** Peak growth of the heap and of the resident set while `run` runs (sampled), in bytes. */
async function peakGrowth<T>(run: () => Promise<T>): Promise<{ value: T; heap: number; rss: number; ms: number }> {
  const before = process.memoryUsage();
  let heap = before.heapUsed;
  let rss = before.rss;
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  const timer = setInterval(sample, 20);
  const started = Date.now();
  try {
    const value = await run();
    sample();
    return { value, heap: heap - before.heapUsed, rss: rss - before.rss, ms: Date.now() - started };
  } finally {
    clearInterval(timer);
  }
}

const SMALL = { importMaxExportBytes: 4 * MiB, importMaxElementBytes: 256 * 1024 };

describeEachDialect('WordPress import limits', (dialect) => {
  it('refuses an element larger than the element limit, naming the limit and where, without reading on', async () => {
    const cms = await testCms(dialect, { config: SMALL });
    const bomb = contentBomb(64); // 64 MiB of text in one element, 67 KB compressed
    expect(bomb.length).toBeLessThan(100 * 1024);
    const { value: res, heap } = await peakGrowth(() =>
      postExport(cms, '/import/blogplatform/analyze', cms.adminToken, bomb, {}, 'export.xml.gz'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.error.details).toMatchObject({
      limit: 'importMaxElementBytes',
      env: 'CMS_IMPORT_MAX_ELEMENT_BYTES',
      maxBytes: 256 * 1024,
      element: 'content:encoded',
      record: 'item',
      recordNumber: 1,
    });
    // It stopped at the limit: a few hundred KB of XML were read, not 64 MiB.
    expect(res.body.error.details.bytesRead).toBeLessThan(2 * MiB);
    expect(heap).toBeLessThan(64 * MiB);

    // The same limit on execute (the export is read before anything is written), and nothing was written.
    const run = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, bomb, { config: '{}' }, 'x.gz');
    expect(run.status, JSON.stringify(run.body)).toBe(413);
    expect(run.body.error.details.limit).toBe('importMaxElementBytes');
  });

  it('refuses a plain (uncompressed) export with one huge element the same way', async () => {
    const cms = await testCms(dialect, { config: SMALL });
    const xml = Buffer.from(
      `${HEAD}<item><title>Big</title><wp:postmeta><wp:meta_key>k</wp:meta_key><wp:meta_value>${'B'.repeat(
        600 * 1024,
      )}</wp:meta_value></wp:postmeta></item>${TAIL}`,
    );
    const res = await postExport(cms, '/import/blogplatform/analyze', cms.adminToken, xml);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(413);
    expect(res.body.error.details).toMatchObject({
      limit: 'importMaxElementBytes',
      element: 'wp:meta_value',
      record: 'item',
    });
  });

  it('refuses an export whose decompressed XML is larger than the export limit, made of small records', async () => {
    const cms = await testCms(dialect, { config: SMALL });
    const bomb = manyItems(20_000); // about 12 MiB of XML
    const { value: res, heap } = await peakGrowth(() =>
      postExport(cms, '/import/blogplatform/analyze', cms.adminToken, bomb, {}, 'export.xml.gz'),
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.error.details).toMatchObject({
      limit: 'importMaxExportBytes',
      env: 'CMS_IMPORT_MAX_EXPORT_BYTES',
      maxBytes: 4 * MiB,
      compressed: true,
    });
    expect(res.body.error.details.bytesRead).toBeLessThan(5 * MiB);
    expect(heap).toBeLessThan(64 * MiB);
    // Under the limit the same kind of file is analysed.
    const ok = await postExport(cms, '/import/blogplatform/analyze', cms.adminToken, manyItems(1000), {}, 'x.gz');
    expect(ok.status, JSON.stringify(ok.body).slice(0, 500)).toBe(200);
    expect(ok.body.data.items).toBe(1000);
  });
});

it('at the default limits, a 950 KB gzip holding 1 GB of one element is refused in seconds with flat memory', {
  timeout: 60_000,
}, async () => {
  const cms = await testCms('sqlite');
  const bomb = contentBomb(1024);
  expect(bomb.length).toBeLessThan(1.1 * MiB);
  const {
    value: res,
    heap,
    rss,
    ms,
  } = await peakGrowth(() =>
    postExport(cms, '/import/blogplatform/analyze', cms.adminToken, bomb, {}, 'export.xml.gz'),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(413);
  expect(res.body.error.details).toMatchObject({ limit: 'importMaxElementBytes', element: 'content:encoded' });
  // The default element limit is 32 MiB: memory grows by about that much, never towards the gigabyte.
  expect(heap).toBeLessThan(128 * MiB);
  expect(rss).toBeLessThan(256 * MiB);
  expect(ms).toBeLessThan(15_000);
  // The service is unharmed: the next request is answered.
  const again = await postExport(
    cms,
    '/import/blogplatform/analyze',
    cms.adminToken,
    Buffer.from(`${HEAD}<item><title>Small</title></item>${TAIL}`),
  );
  expect(again.status).toBe(200);
});

it('destroys the source stream once a limit is passed: the rest of the file is not read', async () => {
  const bomb = contentBomb(1024);
  // The file in 1 KB pieces, produced only as the reader asks for them.
  const pieces = Math.ceil(bomb.length / 1024);
  let pulled = 0;
  const source = new Readable({
    read() {
      this.push(pulled < pieces ? bomb.subarray(pulled * 1024, ++pulled * 1024) : null);
    },
  });
  const read = async () => {
    for await (const _ of readWxr(source, { maxExportBytes: 1024 ** 3, maxElementBytes: 256 * 1024 })) {
      // records are not the point here
    }
  };
  await expect(read()).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  // Destroyed and closed: a closed stream is never asked for more.
  await waitFor(() => source.closed, { what: 'the source stream to close' });
  expect(source.destroyed).toBe(true);
  // Only stream buffers' worth was read ahead (tens of KB of a 1 MB file).
  expect(pulled).toBeLessThan(pieces / 10);
  const after = pulled;
  await new Promise((r) => setImmediate(r));
  expect(pulled).toBe(after);
});
