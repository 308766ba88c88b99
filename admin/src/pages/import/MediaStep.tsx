import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import {
  type AttachmentRef,
  copyMedia,
  type FeaturedImage,
  MEDIA_BATCH,
  type MediaCopyResult,
  type MediaProgress,
  type RewriteResult,
  rewriteUrls,
} from '../../api/import';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice } from '../../components/Feedback';

const n = (v: number) => v.toLocaleString('en');

/** Attachments the media route accepts (src/schemas/import-media.ts): a URL of 1–2048 characters, bounded texts. */
function acceptable(list: AttachmentRef[]): AttachmentRef[] {
  return list
    .filter((a) => a.url.length > 0 && a.url.length <= 2048)
    .map((a) => ({
      ...a,
      sourceId: a.sourceId.slice(0, 64),
      title: a.title.slice(0, 1000),
      alt: a.alt.slice(0, 2000),
    }));
}

interface Outcome {
  copy: MediaCopyResult;
  rewrite: RewriteResult | null;
}

/**
 * The last stage: copy the attachments the import listed into the media
 * library (progress per file), then point entries at the copies and set the
 * featured images the import listed to their copied items. Batches of
 * MEDIA_BATCH keep each request within the route's limit.
 */
export function MediaStep({
  attachments,
  featuredImages,
}: {
  attachments: AttachmentRef[];
  featuredImages: FeaturedImage[];
}) {
  const list = acceptable(attachments);
  const [progress, setProgress] = useState<{ done: number; failed: number } | null>(null);
  const run = useMutation({
    mutationFn: async (): Promise<Outcome> => {
      const copy: MediaCopyResult = { imported: 0, reused: 0, failed: [], urlMap: {}, mediaIds: {} };
      let done = 0;
      let failed = 0;
      setProgress({ done, failed });
      for (let i = 0; i < list.length; i += MEDIA_BATCH) {
        const part = await copyMedia(list.slice(i, i + MEDIA_BATCH), (p: MediaProgress) => {
          done++;
          if (p.status === 'failed') failed++;
          setProgress({ done, failed });
        });
        copy.imported += part.imported;
        copy.reused += part.reused;
        copy.failed.push(...part.failed);
        Object.assign(copy.urlMap, part.urlMap);
        Object.assign(copy.mediaIds, part.mediaIds);
      }
      const rewrite =
        Object.keys(copy.urlMap).length || featuredImages.length
          ? await rewriteUrls({ urlMap: copy.urlMap, featuredImages, mediaIds: copy.mediaIds })
          : null;
      return { copy, rewrite };
    },
  });

  if (!list.length) return <p className="empty">The file lists no attachments: nothing to copy.</p>;
  const result = run.data;
  return (
    <>
      <p>
        {n(list.length)} attachments are listed. Copying downloads each file from the old site into the media library
        (identical files are stored once), then replaces the old addresses in the imported entries and sets their
        featured images.
      </p>
      {!result ? (
        <Button variant="primary" busy={run.isPending} busyLabel="Copying…" onClick={() => run.mutate()}>
          Copy media
        </Button>
      ) : null}
      {progress && run.isPending ? (
        <div className="index__progress">
          <progress max={list.length} value={progress.done} aria-label="Media copied" />
          <span>
            {n(progress.done)} of {n(list.length)} files
            {progress.failed ? `, ${n(progress.failed)} failed` : ''}
          </span>
        </div>
      ) : null}
      <ErrorMessage error={run.error} />
      {result ? (
        <>
          <Notice tone={result.copy.failed.length ? 'info' : 'success'}>
            <span data-testid="media-result">
              {`Files copied: ${n(result.copy.imported)}, already in the library: ${n(result.copy.reused)}, failed: ${n(result.copy.failed.length)}.`}
              {result.rewrite
                ? ` Addresses replaced: ${n(result.rewrite.rewrittenUrls)} in ${n(result.rewrite.updatedEntries)} entries.`
                : ''}
              {result.rewrite && featuredImages.length
                ? ` Featured images set: ${n(result.rewrite.featuredImages.set)}` +
                  `, already set: ${n(result.rewrite.featuredImages.unchanged + result.rewrite.featuredImages.kept)}` +
                  `, failed: ${n(result.rewrite.featuredImages.failed.length)}.`
                : ''}
            </span>
          </Notice>
          {result.copy.failed.length ? (
            <div className="table-wrap">
              <table className="table" aria-label="Files not copied">
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {result.copy.failed.map((f) => (
                    <tr key={f.url}>
                      <td className="import-url" data-label="File">
                        {f.url}
                      </td>
                      <td data-label="Problem">
                        {f.message} <span className="muted">({f.reason})</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {result.rewrite?.featuredImages.failed.length ? (
            <div className="table-wrap">
              <table className="table" aria-label="Featured images not set">
                <thead>
                  <tr>
                    <th scope="col">Entry</th>
                    <th scope="col">Image</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {result.rewrite.featuredImages.failed.map((f) => (
                    <tr key={`${f.collection}-${f.entryId}`}>
                      <td data-label="Entry">
                        <Link to="/content/$collection/$id" params={{ collection: f.collection, id: f.entryId }}>
                          {f.collection}/{f.entryId}
                        </Link>
                      </td>
                      <td className="import-url" data-label="Image">
                        {f.url}
                      </td>
                      <td data-label="Problem">
                        {f.message} <span className="muted">({f.code})</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {result.rewrite?.errors.length ? (
            <ul className="import-list" aria-label="Entries not rewritten">
              {result.rewrite.errors.map((e) => (
                <li key={`${e.collection}-${e.entryIds[0]}`}>
                  {e.collection}: {e.entryIds.length} entries kept their old addresses — {e.message} ({e.code})
                </li>
              ))}
            </ul>
          ) : null}
          {result.copy.failed.length ? (
            <Button busy={run.isPending} busyLabel="Copying…" onClick={() => run.mutate()}>
              Copy again (copied files are reused)
            </Button>
          ) : null}
        </>
      ) : null}
    </>
  );
}
