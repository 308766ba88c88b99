/**
 * `npx tsx bench/import-wxr.ts [sqlite|postgres …]`: import the 10,000-post
 * WordPress export (`wordpress-10k.wxr.xml.gz`) through the import service —
 * analyze, prepare, execute, the stages the admin page and the CLI run — into
 * a fresh database, and report items per second and the process's peak RSS
 * (sampled every 20 ms and at every progress report, each 100 items). PostgreSQL comes from CMS_BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/test) and gets a fresh schema, dropped
 * afterwards. Items per second counts every item of the file the execute
 * stage handled (imported, skipped or failed) over the execute duration; the
 * content items per second counts only the entries written. Then the
 * consistency checker runs over the imported site (`checkSeconds`, and each
 * check's status, problems and time).
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newId } from '../src/core/ids.js';
import { createLogger } from '../src/core/log.js';
import { connect } from '../src/db/connect.js';
import { createCms, resolveConfig } from '../src/index.js';

/**
 * `CMS_BENCH_SYNTHETIC=N`: instead of the file, a generated export of N posts
 * (a few paragraphs, two terms and a comment each), streamed — to compare the
 * peak RSS of a 10,000- and a 50,000-post import (flat memory).
 */
const SYNTHETIC = Number(process.env.CMS_BENCH_SYNTHETIC ?? 0);

async function* synthetic(n: number): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Synthetic</title><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_id>1</wp:author_id><wp:author_login>admin</wp:author_login><wp:author_display_name>Admin</wp:author_display_name></wp:author>\n`;
  let chunk = '';
  for (let i = 1; i <= n; i++) {
    chunk += `<item><title>Post ${i}</title><dc:creator>admin</dc:creator>
<content:encoded><![CDATA[<!-- wp:paragraph --><p>Paragraph one of post ${i} with <strong>bold</strong> text and a <a href="https://example.com/${i}">link</a>.</p><!-- /wp:paragraph -->
<!-- wp:paragraph --><p>${'Lorem ipsum dolor sit amet. '.repeat(20)}</p><!-- /wp:paragraph -->]]></content:encoded>
<wp:post_id>${i}</wp:post_id><wp:post_date_gmt>2020-01-01 00:00:00</wp:post_date_gmt><wp:post_name>post-${i}</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<category domain="category" nicename="cat-${i % 40}">Cat ${i % 40}</category><category domain="post_tag" nicename="tag-${i % 200}">Tag ${i % 200}</category>
<wp:comment><wp:comment_id>${i}</wp:comment_id><wp:comment_author>Reader</wp:comment_author><wp:comment_content>Nice post ${i}</wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>
</item>\n`;
    if (i % 200 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}</channel></rss>\n`;
}

const FILE = process.env.CMS_BENCH_WXR ?? '/work/shared/testdata/wxr/wordpress-10k.wxr.xml.gz';
const PG_URL = process.env.CMS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function run(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-import-'));
  let schema: string | null = null;
  let databaseUrl = `sqlite:${join(dataDir, 'cms.db')}`;
  if (dialect === 'postgres') {
    schema = `bench_${newId().toLowerCase()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    databaseUrl = PG_URL;
  }
  const config = resolveConfig({ dataDir, databaseUrl, logLevel: 'silent' });
  const database = dialect === 'postgres' ? connect(PG_URL, { schema: schema as string, poolSize: 4 }) : undefined;
  const cms = await createCms({ config, database, logger: createLogger('silent'), scheduler: false });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const { user } = await cms.services.users.create(null, { email: 'bench@example.test', name: 'Bench' });
    const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'bench' });
    const actor = await cms.services.tokens.authenticate(token);
    if (!actor) throw new Error('no actor');
    const open = () => (SYNTHETIC ? synthetic(SYNTHETIC) : createReadStream(FILE));
    const t0 = performance.now();
    const analysis = await cms.services.import.analyze(actor, open);
    const t1 = performance.now();
    await cms.services.import.prepare(
      actor,
      analysis.postTypes.map((p) => ({ name: p.name, collection: p.collection, fields: p.fields })),
    );
    const baseRss = process.memoryUsage().rss;
    const t2 = performance.now();
    const result = await cms.services.import.execute(
      actor,
      open,
      {
        postTypeMappings: {},
        skipExisting: false,
        importSections: true,
      },
      {
        // The import keeps the event loop busy (synchronous SQLite, parsing): sample at every progress report too.
        onProgress: () => {
          peak = Math.max(peak, process.memoryUsage().rss);
        },
      },
    );
    peak = Math.max(peak, process.memoryUsage().rss);
    const t3 = performance.now();
    const seconds = (t3 - t2) / 1000;
    const handled = result.imported + result.skipped + result.failed;
    // The consistency checker over what the import wrote: how long a whole check of the site takes.
    const t4 = performance.now();
    const report = await cms.services.check.run(actor, {});
    const checkSeconds = (performance.now() - t4) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      dialect,
      items: result.items,
      imported: result.imported,
      failed: result.failed,
      comments: result.comments.imported,
      analyzeSeconds: +((t1 - t0) / 1000).toFixed(2),
      executeSeconds: +seconds.toFixed(2),
      itemsPerSecond: Math.round(handled / seconds),
      entriesPerSecond: Math.round(result.imported / seconds),
      rssBeforeExecuteMB: Math.round(baseRss / 2 ** 20),
      peakRssMB: Math.round(peak / 2 ** 20),
      checkSeconds: +checkSeconds.toFixed(2),
      check: `${report.status} (${report.checks.map((c) => `${c.id} ${c.status} ${c.problems} in ${c.durationMs} ms`).join('; ')})`,
    };
  } finally {
    clearInterval(sampler);
    await cms.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  }
}

const dialects = (process.argv.slice(2).length ? process.argv.slice(2) : ['sqlite']) as Array<'sqlite' | 'postgres'>;
for (const d of dialects) console.log(JSON.stringify(await run(d)));
