const SUPPORTS = [
  { value: 'drafts', label: 'Drafts', hint: 'New entries start as drafts and are published explicitly.' },
  { value: 'revisions', label: 'Revisions', hint: 'Every save is kept; edits to a live entry wait as a draft.' },
  { value: 'editLock', label: 'Edit lock', hint: 'One person edits an entry at a time; others see who.' },
  { value: 'search', label: 'Search', hint: 'Searchable fields go into the site search.' },
  {
    value: 'seo',
    label: 'SEO',
    hint: 'Entries carry a search title, description, canonical address and noindex, and go into the sitemaps.',
  },
  { value: 'comments', label: 'Comments', hint: 'Readers can comment on published entries; comments are moderated.' },
];

export function SupportsChecks({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Features</legend>
      <div className="checks">
        {SUPPORTS.map((s) => (
          <label key={s.value} className="check">
            <input
              type="checkbox"
              checked={value.includes(s.value)}
              onChange={(e) => onChange(e.target.checked ? [...value, s.value] : value.filter((x) => x !== s.value))}
            />
            <span>
              {s.label}
              <span className="check__hint">{s.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
