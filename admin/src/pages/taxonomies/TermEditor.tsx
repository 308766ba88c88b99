import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { hiddenApi, keys, type Taxonomy, type Term } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage } from '../../components/Feedback';
import { TextAreaField, TextField } from '../../components/Field';
import { issueFor, optional, otherIssues } from '../../lib/forms';
import { localeName, useLocales } from '../../lib/locales';

/** Edit a term: label, slug, description, parent; its translations; delete. */
export function TermEditor({
  taxonomy,
  term,
  onDone,
}: {
  taxonomy: Taxonomy;
  term: Term;
  onDone: (message?: string) => void;
}) {
  const queryClient = useQueryClient();
  const name = taxonomy.name;
  const [label, setLabel] = useState(term.label);
  const [slug, setSlug] = useState(term.slug);
  const [description, setDescription] = useState(term.description ?? '');
  const [parentId, setParentId] = useState<string | null>(term.parentId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.terms(name) });
  const path = { path: { name, slug: term.id } };
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/taxonomies/{name}/terms/{slug}', {
          params: path,
          body: {
            label,
            slug,
            description: optional(description) ?? null,
            ...(parentId !== term.parentId ? { parentId } : {}),
          },
        }),
      ),
    onSuccess: (t) => {
      refresh();
      onDone(`Saved “${t.label}”.`);
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/taxonomies/{name}/terms/{slug}', { params: path })),
    onSuccess: () => {
      refresh();
      onDone(`Deleted “${term.label}”.`);
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <div className="subform subform--nested">
      <form onSubmit={submit} noValidate className="stack" aria-label={`Edit ${term.label}`}>
        <div className="grid-2">
          <TextField
            label="Label"
            name="label"
            value={label}
            onValue={setLabel}
            error={issueFor(save.error, 'label')}
          />
          <TextField label="Slug" name="slug" value={slug} onValue={setSlug} error={issueFor(save.error, 'slug')} />
        </div>
        <TextAreaField
          label="Description"
          optional
          rows={2}
          value={description}
          onValue={setDescription}
          error={issueFor(save.error, 'description')}
        />
        {taxonomy.hierarchical ? (
          <ParentPicker
            taxonomy={taxonomy}
            term={term}
            value={parentId}
            onValue={setParentId}
            error={issueFor(save.error, 'parentId')}
          />
        ) : null}
        <ErrorMessage
          error={save.error}
          extra={otherIssues(save.error, ['label', 'slug', 'description', 'parentId'])}
        />
        <div className="actions">
          <Button type="submit" variant="primary" size="small" busy={save.isPending}>
            Save term
          </Button>
          <Button size="small" variant="ghost" onClick={() => onDone()}>
            Cancel
          </Button>
          <ConfirmButton
            label="Delete"
            question={
              term.childCount ? 'Move or delete its children first.' : `Delete “${term.label}” in this language?`
            }
            confirmLabel="Delete term"
            onConfirm={() => remove.mutate()}
            busy={remove.isPending}
          />
        </div>
        <ErrorMessage error={remove.error} />
      </form>
      <Translations taxonomy={taxonomy} term={term} />
    </div>
  );
}

/** Top level, or any other term of the same language found by a search. */
function ParentPicker({
  taxonomy,
  term,
  value,
  onValue,
  error,
}: {
  taxonomy: Taxonomy;
  term: Term;
  value: string | null;
  onValue: (id: string | null) => void;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const results = useQuery({
    queryKey: [...keys.terms(taxonomy.name), { locale: term.locale, search, picker: true }],
    queryFn: () =>
      unwrap(
        api.GET('/taxonomies/{name}/terms', {
          params: {
            path: { name: taxonomy.name },
            query: { locale: term.locale, search: search || undefined, limit: 20 },
          },
        }),
      ),
  });
  const options = (results.data?.items ?? []).filter((t) => t.id !== term.id);
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Parent</legend>
      <p className="field__hint">Moving a term moves it in every language; it goes last among its new siblings.</p>
      <TextField label="Find a parent" name="parent-search" type="search" value={search} onValue={setSearch} />
      <div className="checks" role="radiogroup" aria-label="Parent term">
        <label className="check">
          <input type="radio" name={`parent-${term.id}`} checked={value === null} onChange={() => onValue(null)} />
          <span>Top level</span>
        </label>
        {options.map((t) => (
          <label key={t.id} className="check">
            <input type="radio" name={`parent-${term.id}`} checked={value === t.id} onChange={() => onValue(t.id)} />
            <span>{t.label}</span>
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

/** The term in the other configured languages: shown when it exists, added here when not. */
function Translations({ taxonomy, term }: { taxonomy: Taxonomy; term: Term }) {
  const { locales, multilingual } = useLocales();
  const translations = useQuery({
    queryKey: [...keys.terms(taxonomy.name), 'translations', term.translationGroup],
    queryFn: () => hiddenApi.termTranslations(term.translationGroup),
    enabled: multilingual,
  });
  if (!multilingual) return null;
  const have = new Map((translations.data?.items ?? []).map((t) => [t.locale, t]));
  return (
    <div className="stack">
      <h3 className="subform__title">Translations</h3>
      <ErrorMessage error={translations.error} />
      <ul className="rows" aria-label="Translations of the term">
        {locales
          .filter((l) => l !== term.locale)
          .map((l) => (
            <TranslationRow key={l} taxonomy={taxonomy} term={term} locale={l} existing={have.get(l)} />
          ))}
      </ul>
    </div>
  );
}

function TranslationRow({
  taxonomy,
  term,
  locale,
  existing,
}: {
  taxonomy: Taxonomy;
  term: Term;
  locale: string;
  existing?: Term;
}) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/taxonomies/{name}/terms', {
          params: { path: { name: taxonomy.name } },
          body: { label: label.trim(), locale, translationOf: term.id },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.terms(taxonomy.name) }),
  });
  if (existing) {
    return (
      <li className="row">
        <span>{localeName(locale)}</span>
        <span>
          {existing.label} <span className="chip">{existing.slug}</span>
        </span>
      </li>
    );
  }
  return (
    <li className="row">
      <form
        className="row__edit"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (label.trim()) add.mutate();
        }}
      >
        <div className="inline-form">
          <TextField
            label={`${localeName(locale)} label`}
            name={`translation-${locale}`}
            value={label}
            onValue={setLabel}
            error={issueFor(add.error, 'label')}
          />
          <Button type="submit" size="small" busy={add.isPending}>
            Translate
          </Button>
        </div>
        <ErrorMessage error={add.error} extra={otherIssues(add.error, ['label'])} />
      </form>
    </li>
  );
}
