import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorMessage } from '../../components/Feedback';

/** Checkboxes for the collections a taxonomy applies to. */
export function CollectionChecks({
  value,
  onValue,
  error,
  disabled,
}: {
  value: string[];
  onValue: (slugs: string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  const collections = useQuery({
    queryKey: ['schema', 'collections'],
    queryFn: () => unwrap(api.GET('/schema/collections')),
  });
  const items = collections.data?.items ?? [];
  const toggle = (slug: string, on: boolean) => onValue(on ? [...value, slug] : value.filter((s) => s !== slug));
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Collections</legend>
      <p className="field__hint">Entries of these collections can be given its terms.</p>
      {collections.isError ? <ErrorMessage error={collections.error} /> : null}
      {collections.isSuccess && !items.length ? (
        <p className="muted small">No collections yet: you can choose them later.</p>
      ) : null}
      <div className="checks">
        {items.map((c) => (
          <label key={c.slug} className={disabled ? 'check check--disabled' : 'check'}>
            <input
              type="checkbox"
              name="collections"
              value={c.slug}
              checked={value.includes(c.slug)}
              disabled={disabled}
              onChange={(e) => toggle(c.slug, e.target.checked)}
            />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field__error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
