import { createReadStream, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type CliContext, collect, examples } from '../context.js';
import { ApiError, CliError, UsageError } from '../errors.js';

interface ImportOptions {
  skipExisting?: boolean;
  locale?: string;
  map?: string[];
  author?: string[];
  sections?: boolean;
  analyzeOnly?: boolean;
  copyMedia?: boolean;
  enableComments?: boolean;
  json?: boolean;
}

/** `type=collection` pairs; `type=` (empty) leaves the type out. */
function pairs(list: string[] | undefined, what: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const raw of list ?? []) {
    const i = raw.indexOf('=');
    if (i <= 0) throw new UsageError(`${what} must look like NAME=VALUE (got "${raw}")`);
    out[raw.slice(0, i)] = raw.slice(i + 1) || null;
  }
  return out;
}

type Cms = Awaited<ReturnType<typeof import('../target/local.js').openCms>>;
type ImportResult = Awaited<ReturnType<Cms['services']['import']['execute']>>;
type Who = Parameters<Cms['services']['importMedia']['copy']>[0];

/**
 * The admin page's media step: copy the attachments (files that fail are
 * listed, the others go on), then replace their URLs in entries and set the
 * featured images the import listed. Rerunning reuses copied files.
 */
async function copyMedia(cms: Cms, who: Who, result: ImportResult, out: ReturnType<CliContext['output']>) {
  const attachments = result.media.attachments
    .filter((a) => a.url.length > 0 && a.url.length <= 2048)
    .map((a) => ({ url: a.url, sourceId: a.sourceId.slice(0, 64), title: a.title, alt: a.alt }));
  if (!attachments.length && !result.media.featuredImages.length) return null;
  out.progress(`Copying ${attachments.length} attachments …`);
  let done = 0;
  const run = await cms.services.importMedia.start(who, { attachments });
  const copy = await run(() => {
    done++;
    if (done % 50 === 0 || done === attachments.length) out.progress(`media: ${done}/${attachments.length} files`);
  });
  const rewrite = await cms.services.importMedia.rewriteUrls(who, {
    urlMap: copy.urlMap,
    featuredImages: result.media.featuredImages,
    mediaIds: copy.mediaIds,
  });
  return { copy, rewrite };
}

/**
 * `cms import wordpress FILE`: the admin import page's stages from the
 * command line, on the local database: analyze the export, prepare the
 * schema (additive), import, and with --copy-media the media step. Progress
 * goes to stderr, the report to stdout.
 */
export function importCommand(program: Command, ctx: CliContext): void {
  const group = examples(
    program.command('import').description('Import content from another platform (local database)'),
    ['cms import wordpress export.xml'],
  );
  examples(
    group
      .command('wordpress')
      .description('Import a WordPress export file (.xml, or .xml.gz): analyze, prepare the schema, import')
      .argument('<file>', 'WordPress export (WXR) file')
      .option('--skip-existing', 'skip entries whose collection, slug and locale already exist (safe re-runs)')
      .option('--locale <locale>', 'locale the content lands in (default: the default locale)')
      .option('--map <type=collection>', 'import a post type into a collection (type= leaves it out)', collect)
      .option(
        '--author <login=email>',
        "make a user the owner of an author's entries (others become guest bylines)",
        collect,
      )
      .option('--no-sections', 'do not import reusable blocks as sections')
      .option(
        '--enable-comments',
        'turn comments on for existing collections that have them off (else their comments are skipped)',
      )
      .option('--analyze-only', 'print the analysis; change nothing')
      .option(
        '--copy-media',
        'then copy the attachments from the old site into the media library, replace their URLs and set featured images',
      )
      .option('--json', 'print the analysis or the import result as JSON')
      .action(async (file: string, opts: ImportOptions, cmd: Command) => {
        const globals = ctx.globals(cmd);
        if (globals.url || globals.remote) {
          throw new UsageError('cms import runs on the local database; on a remote site use the admin import page');
        }
        const path = resolve(ctx.io.cwd, file);
        if (!existsSync(path)) throw new UsageError(`No file ${file}`);
        const out = ctx.output(cmd);
        const mappings = pairs(opts.map, '--map');
        const authorEmails = pairs(opts.author, '--author');
        const { openCms } = await import('../target/local.js');
        const { personActor, systemActor } = await import('../../auth/actor.js');
        const { isCmsError } = await import('../../core/errors.js');
        const { executeConfigSchema } = await import('../../schemas/import.js');
        const { checkHolds } = await import('../../services/holds.js');
        const cms = await openCms(ctx.io);
        try {
          const actor = globals.as ? await cms.services.users.findByEmail(globals.as) : null;
          if (globals.as && !actor) throw new UsageError(`No user with the email address ${globals.as}`);
          const who = actor ? personActor(actor, 'cli') : systemActor;
          const authorMappings: Record<string, string | null> = {};
          for (const [login, email] of Object.entries(authorEmails)) {
            const user = email ? await cms.services.users.findByEmail(email) : null;
            if (email && !user) throw new UsageError(`--author ${login}: no user with the email address ${email}`);
            authorMappings[login] = user?.id ?? null;
          }
          const open = () => createReadStream(path);
          try {
            out.progress(`Analyzing ${file} …`);
            const analysis = await cms.services.import.analyze(who, open);
            for (const w of analysis.warnings) out.note(w.message);
            for (const pt of analysis.postTypes) {
              // For the suggested collection; --enable-comments turns them on.
              if (mappings[pt.name] !== undefined || opts.enableComments) continue;
              for (const w of pt.review.warnings) out.note(`${pt.name}: ${w.message}; use --enable-comments`);
            }
            if (opts.analyzeOnly) {
              if (opts.json) out.json(analysis);
              else {
                out.line(`${analysis.site.title || 'Site'}: ${analysis.items} items`);
                for (const pt of analysis.postTypes) {
                  out.line(`  ${pt.name}: ${pt.count} → ${mappings[pt.name] ?? pt.collection} (${pt.review.state})`);
                }
                for (const e of analysis.excluded) out.line(`  ${e.name}: ${e.count} (${e.reason})`);
              }
              return;
            }
            // Writes wait during the holds, as they do through REST and MCP.
            await checkHolds(cms.services);
            const chosen = analysis.postTypes
              .filter((pt) => mappings[pt.name] !== null)
              .map((pt) => ({
                name: pt.name,
                collection: mappings[pt.name] ?? pt.collection,
                fields: pt.fields,
                ...(opts.enableComments ? { enableComments: true } : {}),
              }));
            if (chosen.length) {
              const prepared = await cms.services.import.prepare(who, chosen);
              for (const c of prepared.collectionsCreated) out.progress(`Created collection ${c}`);
              for (const c of prepared.commentsEnabled) out.progress(`Turned comments on for ${c}`);
              for (const e of prepared.errors)
                out.note(`Cannot import ${e.postType} into ${e.collection}: ${e.message}`);
              if (!prepared.success)
                throw new ApiError('VALIDATION_ERROR', 'The schema could not be prepared', { errors: prepared.errors });
            }
            const config = executeConfigSchema.parse({
              postTypeMappings: {
                ...Object.fromEntries(Object.entries(mappings).filter(([, v]) => v === null)),
                ...Object.fromEntries(chosen.map((c) => [c.name, c.collection])),
              },
              skipExisting: Boolean(opts.skipExisting),
              authorMappings,
              importSections: opts.sections !== false,
              ...(opts.locale ? { locale: opts.locale } : {}),
            });
            const result = await cms.services.import.execute(who, open, config, {
              onProgress: (p) => out.progress(`${p.stage}: ${p.done}${p.total ? `/${p.total}` : ''} items`),
            });
            const media = opts.copyMedia ? await copyMedia(cms, who, result, out) : null;
            if (opts.json) out.json(media ? { ...result, mediaCopy: media.copy, mediaRewrite: media.rewrite } : result);
            else {
              out.line(
                `Imported ${result.imported}, skipped ${result.skipped}, failed ${result.failed} of ${result.items} items`,
              );
              for (const [c, b] of Object.entries(result.byCollection)) {
                out.line(`  ${c}: ${b.imported} imported, ${b.skipped} skipped, ${b.failed} failed`);
              }
              out.line(`  comments: ${result.comments.imported} imported, ${result.comments.skipped} skipped`);
              out.line(`  menus: ${result.menus.created} created, ${result.menus.items.imported} items`);
              if (media) {
                const { copy, rewrite } = media;
                out.line(
                  `  media: ${copy.imported} copied, ${copy.reused} already in the library, ${copy.failed.length} failed`,
                );
                for (const f of copy.failed) out.note(`  media failed: ${f.url}: ${f.message} (${f.reason})`);
                if (rewrite) {
                  const fi = rewrite.featuredImages;
                  out.line(`  addresses replaced: ${rewrite.rewrittenUrls} in ${rewrite.updatedEntries} entries`);
                  out.line(
                    `  featured images: ${fi.set} set, ${fi.unchanged + fi.kept} already set, ${fi.failed.length} failed`,
                  );
                  for (const f of fi.failed)
                    out.note(
                      `  featured image failed: ${f.collection} ${f.entryId} ${f.url}: ${f.message} (${f.code})`,
                    );
                  for (const e of rewrite.errors)
                    out.note(`  not rewritten: ${e.collection} (${e.entryIds.length} entries): ${e.message}`);
                }
              } else if (result.media.attachments.length) {
                out.line(
                  `  media: ${result.media.attachments.length} attachments to copy (--copy-media, or the admin import page)`,
                );
              }
              for (const e of result.errors)
                out.note(`  failed: ${e.postType} ${e.sourceId} "${e.title}": ${e.message}`);
            }
            if (!result.success)
              throw new CliError(`${result.failed} of ${result.items} items failed (see the report)`);
          } catch (err) {
            if (isCmsError(err)) throw new ApiError(err.code, err.message, err.details, err.status);
            throw err;
          }
        } finally {
          await cms.close();
        }
      }),
    [
      'cms import wordpress export.xml',
      'cms import wordpress export.xml --analyze-only',
      'cms import wordpress export.xml.gz --skip-existing --author admin=you@example.com --json',
      'cms import wordpress export.xml --map product=products --map attachment_log=',
      'cms import wordpress export.xml --skip-existing --copy-media',
    ],
  );
}
