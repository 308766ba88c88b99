import { TextField } from '../../components/Field';

export type UrlPatternValue = string | Record<string, string> | null;

/** What the form holds: one pattern, or one per locale (blank ones fall back to the default locale's). */
export interface UrlPatternForm {
  perLocale: boolean;
  one: string;
  byLocale: Record<string, string>;
}

export function toPatternForm(p: UrlPatternValue): UrlPatternForm {
  if (p === null) return { perLocale: false, one: '', byLocale: {} };
  if (typeof p === 'string') return { perLocale: false, one: p, byLocale: {} };
  return { perLocale: true, one: '', byLocale: { ...p } };
}

/** The request's `urlPattern`: null when nothing is entered (entries are then not routable). */
export function fromPatternForm(f: UrlPatternForm): UrlPatternValue {
  if (!f.perLocale) return f.one.trim() || null;
  const entries = Object.entries(f.byLocale)
    .map(([k, v]) => [k, v.trim()] as const)
    .filter(([, v]) => v);
  return entries.length ? Object.fromEntries(entries) : null;
}

/**
 * The collection's URL pattern (`/blog/{slug}`), which makes its entries
 * routable: sitemaps, hreflang alternates and SEO use it. On a multilingual
 * site each language can have its own; the service checks the patterns and
 * its issues show under the matching box.
 */
export function UrlPatternField({
  value,
  onChange,
  locales,
  defaultLocale,
  issue,
}: {
  value: UrlPatternForm;
  onChange: (next: UrlPatternForm) => void;
  locales: string[];
  defaultLocale: string;
  /** The service's issue message for `urlPattern` or `urlPattern.<locale>`. */
  issue: (locale?: string) => string | undefined;
}) {
  const hint =
    'Where entries live on your site, with {slug} (and optionally {locale}), e.g. /blog/{slug}. Leave empty for entries that have no page of their own.';
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Address of entries</legend>
      {value.perLocale ? (
        <div className="stack">
          <p className="field__hint">
            {hint} A language left empty uses the {defaultLocale} pattern with its prefix.
          </p>
          {locales.map((l) => (
            <TextField
              key={l}
              label={`URL pattern (${l})`}
              name={`urlPattern-${l}`}
              optional
              spellCheck={false}
              autoComplete="off"
              placeholder={l === defaultLocale ? '/blog/{slug}' : `/${l}/blog/{slug}`}
              value={value.byLocale[l] ?? ''}
              onValue={(v) => onChange({ ...value, byLocale: { ...value.byLocale, [l]: v } })}
              error={issue(l)}
            />
          ))}
        </div>
      ) : (
        <TextField
          label="URL pattern"
          name="urlPattern"
          optional
          hint={hint}
          spellCheck={false}
          autoComplete="off"
          placeholder="/blog/{slug}"
          value={value.one}
          onValue={(one) => onChange({ ...value, one })}
          error={issue()}
        />
      )}
      {locales.length > 1 ? (
        <label className="check check--inline">
          <input
            type="checkbox"
            checked={value.perLocale}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? { perLocale: true, one: value.one, byLocale: value.one ? { [defaultLocale]: value.one } : {} }
                  : { perLocale: false, one: value.byLocale[defaultLocale] ?? value.one, byLocale: {} },
              )
            }
          />
          <span>A different pattern per language</span>
        </label>
      ) : null}
    </fieldset>
  );
}
