import type { Bucket, ExecuteResult } from '../../api/import';

const n = (v: number) => v.toLocaleString('en');

/** Why items were skipped or failed, in words a person can act on. */
const REASONS: Record<string, string> = {
  exists: 'already imported (skipped)',
  not_selected: 'type left out',
  no_collection: 'no collection for the type',
  media_step: 'attachment: copied by the media step',
  internal_type: 'WordPress internal type',
  ALREADY_EXISTS: 'an entry with the slug exists (re-run with "Skip entries that exist")',
  pingback: 'pingback or trackback',
  comments_disabled: 'the collection does not accept comments',
  entry_not_imported: 'its entry was not imported',
  body_too_big: 'longer than a comment may be',
  body_too_small: 'empty',
  author_name_too_big: 'author name too long',
  author_url_dropped: 'author link dropped (not an http(s) address)',
  INVALID_MENU_ITEM: 'refused by the menu rules',
};
const reason = (code: string) => (REASONS[code] ? `${REASONS[code]} (${code})` : code);

function BucketRows({ label, buckets }: { label: string; buckets: Record<string, Bucket> }) {
  const rows = Object.entries(buckets);
  if (!rows.length) return null;
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{label}</th>
            <th scope="col">Imported</th>
            <th scope="col">Skipped</th>
            <th scope="col">Failed</th>
            <th scope="col">Reasons</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, b]) => (
            <tr key={name} data-testid={`import-row-${name}`}>
              <td data-label={label}>{name}</td>
              <td data-label="Imported">{n(b.imported)}</td>
              <td data-label="Skipped">{n(b.skipped)}</td>
              <td data-label="Failed">{n(b.failed)}</td>
              <td data-label="Reasons">
                {Object.entries(b.byReason)
                  .map(([code, count]) => `${n(count)} ${reason(code)}`)
                  .join('; ') || '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The execute result: every item of the file is imported, skipped or failed, with the reason. */
export function ImportReport({ result }: { result: ExecuteResult }) {
  const r = result;
  const unconverted = Object.entries(r.unconverted);
  return (
    <div className="import-summary">
      <dl className="import-facts" data-testid="import-report">
        <div>
          <dt>Items</dt>
          <dd>{n(r.items)}</dd>
        </div>
        <div>
          <dt>Imported</dt>
          <dd data-testid="import-imported">{n(r.imported)}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd data-testid="import-skipped">{n(r.skipped)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd data-testid="import-failed">{n(r.failed)}</dd>
        </div>
        <div>
          <dt>Comments</dt>
          <dd>
            {n(r.comments.imported)} imported, {n(r.comments.skipped)} skipped, {n(r.comments.failed)} failed
            {Object.keys(r.comments.byReason).length || Object.keys(r.comments.changed).length ? (
              <span className="muted" data-testid="import-comment-reasons">
                {' '}
                (
                {[...Object.entries(r.comments.byReason), ...Object.entries(r.comments.changed)]
                  .map(([code, count]) => `${n(count)} ${reason(code)}`)
                  .join('; ')}
                )
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Menus</dt>
          <dd>
            {n(r.menus.created)} created ({n(r.menus.items.imported)} items), {n(r.menus.skipped)} skipped,{' '}
            {n(r.menus.failed)} failed
          </dd>
        </div>
        <div>
          <dt>Bylines</dt>
          <dd>
            {n(r.bylines.created)} created, {n(r.bylines.reused)} reused
          </dd>
        </div>
        {r.sections ? (
          <div>
            <dt>Sections</dt>
            <dd>
              {n(r.sections.imported)} imported, {n(r.sections.skipped)} skipped, {n(r.sections.failed)} failed
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Took</dt>
          <dd>{(r.durationMs / 1000).toFixed(1)} s</dd>
        </div>
      </dl>

      <BucketRows label="Collection" buckets={r.byCollection} />
      <BucketRows label="WordPress type" buckets={r.byPostType} />

      {Object.keys(r.taxonomies).length ? (
        <ul className="import-list" aria-label="Taxonomies">
          {Object.entries(r.taxonomies).map(([name, t]) => (
            <li key={name}>
              {name}: {n(t.created)} terms created, {n(t.existing)} reused, {n(t.assignments)} assignments
              {t.failed ? `, ${n(t.failed)} failed (${t.errors.join('; ')})` : ''}
            </li>
          ))}
        </ul>
      ) : null}

      {unconverted.length ? (
        <p className="muted">
          Kept as marked blocks (open the entries to check them):{' '}
          {unconverted.map(([kind, count]) => `${n(count)} ${kind}`).join(', ')}.
        </p>
      ) : null}

      {r.errors.length ? (
        <>
          <h3 className="import-subtitle">
            Failed items{r.failed > r.errors.length ? ` (first ${r.errors.length} of ${n(r.failed)})` : ''}
          </h3>
          <div className="table-wrap">
            <table className="table" aria-label="Failed items">
              <thead>
                <tr>
                  <th scope="col">Source ID</th>
                  <th scope="col">Type</th>
                  <th scope="col">Title</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {r.errors.map((e) => (
                  <tr key={`${e.sourceId}-${e.code}`}>
                    <td data-label="Source ID">{e.sourceId}</td>
                    <td data-label="Type">{e.postType}</td>
                    <td data-label="Title">{e.title || '(untitled)'}</td>
                    <td data-label="Problem">
                      {e.message} <span className="muted">({e.code})</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
