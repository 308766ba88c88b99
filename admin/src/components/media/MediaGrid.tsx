import type { MediaItem } from '../../api/media';
import { formatDate } from '../../lib/format';
import { formatBytes, typeLabel } from '../../lib/media';
import { MediaThumb } from './MediaThumb';

export type MediaView = 'grid' | 'list';

interface Props {
  items: MediaItem[];
  view: MediaView;
  /** IDs of the selected items. */
  selected: readonly string[];
  onActivate: (item: MediaItem) => void;
  /** Why an item cannot be chosen (e.g. a type the field refuses), or null. */
  unavailable?: (item: MediaItem) => string | null;
  label: string;
}

const dims = (i: MediaItem) => (i.width && i.height ? `${i.width} × ${i.height}` : null);

/** The library as tiles or as a table; every item is one toggle button (aria-pressed). */
export function MediaGrid({ items, view, selected, onActivate, unavailable, label }: Props) {
  if (view === 'list') {
    return (
      <div className="table-wrap">
        <table className="table media-table">
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">Dimensions</th>
              <th scope="col">Uploaded</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const reason = unavailable?.(item) ?? null;
              return (
                <tr key={item.id} className={selected.includes(item.id) ? 'is-selected' : undefined}>
                  <td className="media-table__file">
                    <button
                      type="button"
                      className="media-row"
                      aria-pressed={selected.includes(item.id)}
                      disabled={reason !== null}
                      title={reason ?? undefined}
                      onClick={() => onActivate(item)}
                    >
                      <MediaThumb item={item} />
                      <span className="cell-title">{item.filename}</span>
                    </button>
                  </td>
                  <td data-label="Type">{typeLabel(item.mimeType)}</td>
                  <td data-label="Size">{formatBytes(item.size)}</td>
                  <td data-label="Dimensions">{dims(item) ?? '—'}</td>
                  <td data-label="Uploaded" className="cell-date">
                    {formatDate(item.createdAt)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <ul className="media-grid" aria-label={label}>
      {items.map((item) => {
        const reason = unavailable?.(item) ?? null;
        const on = selected.includes(item.id);
        return (
          <li key={item.id}>
            <button
              type="button"
              className={on ? 'media-tile media-tile--selected' : 'media-tile'}
              aria-pressed={on}
              disabled={reason !== null}
              title={reason ?? undefined}
              onClick={() => onActivate(item)}
            >
              <MediaThumb item={item} />
              <span className="media-tile__name">{item.filename}</span>
              <span className="media-tile__meta">
                {typeLabel(item.mimeType)} · {dims(item) ?? formatBytes(item.size)}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
