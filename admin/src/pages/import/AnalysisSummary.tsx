import type { Analysis } from '../../api/import';

const n = (v: number) => v.toLocaleString('en');
const byKey = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${n(v)} ${k}`)
    .join(', ');

/** What the export holds, as analyze counted it: the facts a person checks before mapping anything. */
export function AnalysisSummary({ analysis }: { analysis: Analysis }) {
  const a = analysis;
  return (
    <div className="import-summary">
      {a.warnings.map((w) => (
        <p key={w.code} className="alert alert--warn" data-testid={`import-warning-${w.code}`}>
          {w.message}
        </p>
      ))}
      <dl className="import-facts">
        <div>
          <dt>Site</dt>
          <dd>
            {a.site.title || 'Untitled site'}
            {a.site.url ? <span className="muted"> · {a.site.url}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Items in the file</dt>
          <dd data-testid="import-items">{n(a.items)}</dd>
        </div>
        <div>
          <dt>Attachments</dt>
          <dd>
            {n(a.attachments.count)}
            {a.attachments.count ? <span className="muted"> ({byKey(a.attachments.byExtension)})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Comments</dt>
          <dd>
            {n(a.comments.count)}
            {a.comments.count ? <span className="muted"> ({byKey(a.comments.byStatus)})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Menus</dt>
          <dd>{a.menus.length ? a.menus.map((m) => `${m.label} (${n(m.items)})`).join(', ') : 'None'}</dd>
        </div>
        <div>
          <dt>Reusable blocks</dt>
          <dd>{n(a.reusableBlocks)}</dd>
        </div>
      </dl>

      <h3 className="import-subtitle">Content types</h3>
      <div className="table-wrap">
        <table className="table" aria-label="Content types">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Items</th>
              <th scope="col">By status</th>
            </tr>
          </thead>
          <tbody>
            {a.postTypes.map((t) => (
              <tr key={t.name}>
                <td data-label="Type">{t.name}</td>
                <td data-label="Items">{n(t.count)}</td>
                <td data-label="By status">{byKey(t.byStatus)}</td>
              </tr>
            ))}
            {a.excluded.map((t) => (
              <tr key={t.name} className="is-disabled">
                <td data-label="Type">{t.name}</td>
                <td data-label="Items">{n(t.count)}</td>
                <td data-label="By status">Not imported: {t.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {a.postTypes.length === 0 ? <p className="empty">The file has no content to import.</p> : null}

      <div className="import-columns">
        <div>
          <h3 className="import-subtitle">Authors</h3>
          {a.authors.length ? (
            <ul className="import-list">
              {a.authors.map((au) => (
                <li key={au.login}>
                  {au.displayName || au.login}{' '}
                  <span className="muted">
                    ({au.login}, {n(au.posts)} items)
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">No authors listed.</p>
          )}
        </div>
        <div>
          <h3 className="import-subtitle">Taxonomies</h3>
          {a.taxonomies.length ? (
            <ul className="import-list">
              {a.taxonomies.map((t) => (
                <li key={t.source}>
                  {t.source} → {t.taxonomy} <span className="muted">({n(t.terms)} terms)</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">No terms.</p>
          )}
        </div>
      </div>
    </div>
  );
}
