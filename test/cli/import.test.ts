import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { SAMPLE } from '../api/import/sample-wxr.js';
import { cliSite } from '../helpers/cli.js';
import { postgresAvailable } from '../helpers/db.js';
import { serveUploads } from '../helpers/wxr.js';

/** `cms import wordpress`: analyze, prepare and import on the local database, progress on stderr. */
for (const kind of ['sqlite', 'postgres'] as const) {
  it.skipIf(kind === 'postgres' && !postgresAvailable)(
    `imports an export and re-runs safely [local ${kind}]`,
    async () => {
      const site = await cliSite(kind);
      writeFileSync(join(site.dir, 'export.xml.gz'), gzipSync(SAMPLE));
      const analysis = await site.run(['import', 'wordpress', 'export.xml.gz', '--analyze-only', '--json']);
      expect(analysis.code, analysis.stderr).toBe(0);
      expect(analysis.json().postTypes.map((p: any) => p.name)).toEqual(['post', 'page', 'product']);

      const first = await site.run(['import', 'wordpress', 'export.xml.gz', '--map', 'product=', '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('done: 11/11 items');
      const r = first.json();
      expect(r.byCollection.posts.imported).toBe(4);
      expect(r.byPostType.product.byReason).toEqual({ not_selected: 1 });
      expect(r.imported + r.skipped + r.failed).toBe(r.items);

      const again = await site.run(['import', 'wordpress', 'export.xml.gz', '--map', 'product=', '--skip-existing']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('Imported 0, skipped 11, failed 0 of 11 items');

      const clash = await site.run(['import', 'wordpress', 'export.xml.gz', '--map', 'product=']);
      expect(clash.code).not.toBe(0);
      expect(clash.stderr).toContain('items failed');
    },
  );
}

/** A collection without comments: the CLI names what would be skipped; `--enable-comments` turns them on. */
for (const kind of ['sqlite', 'postgres'] as const) {
  it.skipIf(kind === 'postgres' && !postgresAvailable)(
    `warns about comments a collection would skip and enables them [local ${kind}]`,
    async () => {
      const site = await cliSite(kind);
      writeFileSync(join(site.dir, 'export.xml'), SAMPLE);
      // posts exists with its fields, comments off.
      const fields = [
        { slug: 'title', label: 'Title', type: 'string' as const, required: true },
        { slug: 'body', label: 'Body', type: 'portableText' as const },
      ];
      await site.cms.services.schema.collections.create(systemActor, {
        slug: 'posts',
        label: 'Posts',
        labelSingular: 'Post',
        supports: ['drafts', 'revisions'],
        fields,
      });
      const look = await site.run(['import', 'wordpress', 'export.xml', '--analyze-only']);
      expect(look.code, look.stderr).toBe(0);
      expect(look.stderr).toContain('post: "posts" does not accept comments: 3 comments would be skipped');
      expect(look.stderr).toContain('--enable-comments');

      const run = await site.run([
        'import',
        'wordpress',
        'export.xml',
        '--map',
        'product=',
        '--enable-comments',
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('Turned comments on for posts');
      expect(run.json().comments).toMatchObject({ imported: 3, skipped: 0 });
    },
  );
}

/** `--copy-media`: the media step from the command line; featured images land in the entries. */
for (const kind of ['sqlite', 'postgres'] as const) {
  it.skipIf(kind === 'postgres' && !postgresAvailable)(
    `copies media and sets featured images [local ${kind}]`,
    { timeout: 120_000 },
    async () => {
      const uploads = await serveUploads();
      try {
        const site = await cliSite(kind);
        writeFileSync(join(site.dir, 'theme.xml'), uploads.themeData());
        const env = { CMS_IMPORT_ALLOW_PRIVATE_HOSTS: '1' };
        const run = await site.run(['import', 'wordpress', 'theme.xml', '--copy-media', '--json'], { env });
        expect(run.code, run.stderr.slice(-2000)).toBe(0);
        const r = run.json();
        // The stand-in host serves images only: the audio and video attachments fail, each listed.
        expect(r.mediaCopy.failed.map((f: any) => f.url.split('.').pop()).sort()).toEqual(['mov', 'mp3']);
        expect(r.mediaCopy.imported).toBeGreaterThan(0);
        expect(r.mediaRewrite.featuredImages).toEqual({ set: 6, unchanged: 0, kept: 0, failed: [] });
        for (const f of r.media.featuredImages) {
          const row = await (site.cms.ctx.db as any)
            .selectFrom(`ec_${f.collection}`)
            .select('featured_image')
            .where('id', '=', f.entryId)
            .executeTakeFirstOrThrow();
          const value = typeof row.featured_image === 'string' ? JSON.parse(row.featured_image) : row.featured_image;
          expect(value).toMatchObject({ id: r.mediaCopy.mediaIds[f.url], provider: 'local' });
        }
        // A rerun skips the entries and, with nothing listed for them, writes nothing new.
        const again = await site.run(['import', 'wordpress', 'theme.xml', '--skip-existing', '--copy-media'], { env });
        expect(again.code, again.stderr.slice(-2000)).toBe(0);
        expect(again.stdout).toContain('0 copied');
      } finally {
        await uploads.close();
      }
    },
  );
}
