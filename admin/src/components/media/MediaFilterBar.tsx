import { TYPE_FILTERS } from '../../lib/media';
import { SelectField, TextField } from '../Field';
import type { MediaView } from './MediaGrid';

interface Props {
  search: string;
  onSearch: (v: string) => void;
  /** null hides the type filter (the picker's `accept` decides the types). */
  type: string | null;
  onType: (v: string) => void;
  view: MediaView;
  onView: (v: MediaView) => void;
}

/** Filename search, type filter and the grid/list switch. */
export function MediaFilterBar({ search, onSearch, type, onType, view, onView }: Props) {
  return (
    <search className="filters media-filters">
      <TextField label="Search file names" type="search" name="filename" value={search} onValue={onSearch} />
      {type !== null ? (
        <SelectField label="Type" name="type" value={type} onValue={onType}>
          {TYPE_FILTERS.map((t) => (
            <option key={t.label} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
      ) : null}
      <fieldset className="view-switch">
        <legend className="field__label">View</legend>
        <div className="view-switch__buttons">
          <button
            type="button"
            className="button button--small"
            aria-pressed={view === 'grid'}
            onClick={() => onView('grid')}
          >
            Grid
          </button>
          <button
            type="button"
            className="button button--small"
            aria-pressed={view === 'list'}
            onClick={() => onView('list')}
          >
            List
          </button>
        </div>
      </fieldset>
    </search>
  );
}
