/** One row per collection of the usage index: its status and the counts the API reports. */
export interface CollectionRow {
  collection: string;
  status: string;
  entries: number;
  referencing: number;
  references: number;
  skipped: number;
  errorCode: string | null | undefined;
}

/** The per-collection table of the status card and of a repair's result (cells labelled for phones). */
export function CollectionTable({
  caption,
  rows,
  withReferences = false,
}: {
  caption: string;
  rows: CollectionRow[];
  /** Show the reference count column (a repair's result reports it). */
  withReferences?: boolean;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Collection</th>
            <th scope="col">Status</th>
            <th scope="col">Entries</th>
            <th scope="col">Using media</th>
            {withReferences ? <th scope="col">References</th> : null}
            <th scope="col">Skipped</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.collection}>
              <td data-label="Collection">
                <span>
                  <code className="code">{c.collection}</code>
                </span>
              </td>
              <td data-label="Status">{c.status}</td>
              <td data-label="Entries">{c.entries.toLocaleString()}</td>
              <td data-label="Using media">{c.referencing.toLocaleString()}</td>
              {withReferences ? <td data-label="References">{c.references.toLocaleString()}</td> : null}
              <td data-label="Skipped">{c.skipped.toLocaleString()}</td>
              <td data-label="Error">{c.errorCode ? <code className="code">{c.errorCode}</code> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
