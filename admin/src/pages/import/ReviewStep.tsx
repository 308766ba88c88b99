import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { collectionsQuery } from '../../api/content';
import type { Analysis, ReviewState } from '../../api/import';
import { LocaleSelect } from '../../components/LocaleSelect';
import { type Choices, commentsSkipped } from './choices';

const STATE_HINT: Record<ReviewState, string> = {
  Ready: 'The collection has every field the import writes.',
  'New collection': 'Prepare creates the collection with its fields.',
  'Add fields': 'Prepare adds the missing fields; existing entries stay valid.',
  Incompatible: 'A field exists with another type: choose another collection or leave the type out.',
};

function StatePill({ state }: { state: ReviewState }) {
  const tone = state === 'Ready' ? 'ok' : state === 'Incompatible' ? 'bad' : 'todo';
  return <span className={`import-state import-state--${tone}`}>{state}</span>;
}

/** Mapping of content types to collections, authors to users, and the run's options. */
export function ReviewStep({
  analysis,
  choices,
  onChange,
  errors,
}: {
  analysis: Analysis;
  choices: Choices;
  onChange: (c: Choices) => void;
  errors: Record<string, string>;
}) {
  const collections = useQuery(collectionsQuery);
  // Author mapping offers the first 100 users; anyone else can be credited as a guest byline.
  const users = useQuery({
    queryKey: ['admin-users', 'import'],
    queryFn: () => unwrap(api.GET('/admin/users', { params: { query: { limit: 100 } } })),
    enabled: analysis.authors.length > 0,
  });
  const setType = (name: string, patch: Partial<Choices['types'][string]>) =>
    onChange({ ...choices, types: { ...choices.types, [name]: { ...choices.types[name], ...patch } } });

  return (
    <>
      <datalist id="import-collections">
        {(collections.data?.items ?? []).map((c) => (
          <option key={c.slug} value={c.slug} />
        ))}
      </datalist>
      <ul className="import-types" aria-label="Content types">
        {analysis.postTypes.map((t) => {
          const choice = choices.types[t.name];
          const changed = choice.collection !== t.collection;
          const inputId = `import-target-${t.name}`;
          // Only for the suggested collection: another target is checked by prepare.
          const skippedComments = changed || !choice.include ? 0 : commentsSkipped(t);
          return (
            <li key={t.name} className="import-type" data-testid={`import-type-${t.name}`}>
              <label className="check check--inline">
                <input
                  type="checkbox"
                  checked={choice.include}
                  onChange={(e) => setType(t.name, { include: e.target.checked })}
                />
                <span>
                  Import <strong>{t.name}</strong> ({t.count.toLocaleString('en')})
                </span>
              </label>
              <div className="import-type__state">
                {changed ? (
                  <span className="import-state import-state--todo">Checked by prepare</span>
                ) : (
                  <StatePill state={t.review.state} />
                )}
                <span className="muted">
                  {changed
                    ? 'Another collection than suggested: prepare adds what it lacks.'
                    : STATE_HINT[t.review.state]}
                  {!changed && t.review.state === 'Add fields' ? ` Missing: ${t.review.missingFields.join(', ')}.` : ''}
                  {!changed && t.review.reason ? ` ${t.review.reason}` : ''}
                </span>
              </div>
              <div className={errors[t.name] ? 'field field--invalid' : 'field'}>
                <label className="field__label" htmlFor={inputId}>
                  Target collection
                </label>
                <input
                  id={inputId}
                  className="input"
                  list="import-collections"
                  value={choice.collection}
                  disabled={!choice.include}
                  spellCheck={false}
                  aria-invalid={errors[t.name] ? true : undefined}
                  onChange={(e) => setType(t.name, { collection: e.target.value.trim() })}
                />
                {errors[t.name] ? (
                  <p className="field__error">
                    <span aria-hidden="true">⚠ </span>
                    {errors[t.name]}
                  </p>
                ) : null}
              </div>
              {skippedComments ? (
                <div className="import-type__comments" data-testid={`import-comments-${t.name}`}>
                  <p className="alert alert--warn">
                    <strong>{t.collection}</strong> does not accept comments: {skippedComments.toLocaleString('en')}{' '}
                    comment{skippedComments === 1 ? '' : 's'} would be skipped.
                  </p>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={choice.enableComments}
                      onChange={(e) => setType(t.name, { enableComments: e.target.checked })}
                    />
                    <span>
                      Enable comments on {t.collection}
                      <span className="check__hint">Prepare turns comments on, then the import brings them in.</span>
                    </span>
                  </label>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>

      {analysis.customFields.length ? (
        <fieldset className="import-fieldset">
          <legend className="import-subtitle">Custom fields to add as fields</legend>
          <div className="checks">
            {analysis.customFields.map((f) => (
              <label key={f.key} className="check">
                <input
                  type="checkbox"
                  checked={choices.customFields.includes(f.key)}
                  onChange={(e) =>
                    onChange({
                      ...choices,
                      customFields: e.target.checked
                        ? [...choices.customFields, f.key]
                        : choices.customFields.filter((k) => k !== f.key),
                    })
                  }
                />
                <span>
                  {f.key}
                  <span className="check__hint">
                    → {f.field.slug} ({f.field.type}), {f.count} values in {f.postTypes.join(', ')}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}

      {analysis.authors.length ? (
        <fieldset className="import-fieldset">
          <legend className="import-subtitle">Authors</legend>
          <p className="muted">
            A mapped author's entries belong to the user; others are credited as a guest byline (created once).
          </p>
          <div className="import-authors">
            {analysis.authors.map((au) => (
              <label key={au.login} className="field">
                <span className="field__label">
                  {au.displayName || au.login} <span className="muted">({au.login})</span>
                </span>
                <select
                  className="input select"
                  value={choices.authors[au.login] ?? ''}
                  onChange={(e) =>
                    onChange({ ...choices, authors: { ...choices.authors, [au.login]: e.target.value } })
                  }
                >
                  <option value="">Guest byline</option>
                  {(users.data?.items ?? []).map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.name || u.email}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}

      <fieldset className="import-fieldset">
        <legend className="import-subtitle">Options</legend>
        <div className="checks">
          <label className="check">
            <input
              type="checkbox"
              checked={choices.skipExisting}
              onChange={(e) => onChange({ ...choices, skipExisting: e.target.checked })}
            />
            <span>
              Skip entries that exist
              <span className="check__hint">For a re-run: same collection, slug and locale. Off: they fail.</span>
            </span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={choices.importSections}
              onChange={(e) => onChange({ ...choices, importSections: e.target.checked })}
            />
            <span>
              Import reusable blocks as sections
              <span className="check__hint">{analysis.reusableBlocks} in the file</span>
            </span>
          </label>
        </div>
        <LocaleSelect
          label="Locale of the imported content"
          value={choices.locale}
          onValue={(locale) => onChange({ ...choices, locale })}
        />
      </fieldset>
    </>
  );
}
