import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys, type Taxonomy } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { issueFor, otherIssues } from '../../lib/forms';
import { localeName, useLocales } from '../../lib/locales';
import { CollectionChecks } from './CollectionChecks';
import { TermTree } from './TermTree';

/** One taxonomy: labels per locale, taxonomy-wide settings, and its terms. */
export function TaxonomyPage({ name }: { name: string }) {
  const translations = useQuery({
    queryKey: [...keys.taxonomy(name), 'translations'],
    queryFn: () => unwrap(api.GET('/taxonomies/{name}/translations', { params: { path: { name } } })),
  });
  const { defaultLocale } = useLocales();
  const defs = translations.data?.items ?? [];
  const shown = defs.find((d) => d.locale === defaultLocale) ?? defs[0];
  return (
    <Page
      title={shown ? shown.label : 'Taxonomy'}
      description={shown ? `${shown.hierarchical ? 'Nested' : 'Flat'} taxonomy “${name}”.` : undefined}
    >
      {translations.isPending ? <Spinner /> : null}
      {translations.isError ? <ErrorMessage error={translations.error} /> : null}
      {shown ? (
        <>
          <TermTree taxonomy={shown} />
          <Labels name={name} defs={defs} />
          <WideSettings taxonomy={shown} />
          <DeleteTaxonomy taxonomy={shown} />
        </>
      ) : null}
    </Page>
  );
}

/** Each configured locale's labels: edit the ones that exist, add the missing ones. */
function Labels({ name, defs }: { name: string; defs: Taxonomy[] }) {
  const { locales } = useLocales();
  return (
    <Section
      id="labels"
      title="Labels"
      description={
        locales.length > 1 ? 'What the taxonomy is called in each language.' : 'What the taxonomy is called.'
      }
    >
      <ul className="rows" aria-label="Labels per locale">
        {locales.map((locale) => (
          <LabelRow
            key={locale}
            name={name}
            locale={locale}
            def={defs.find((d) => d.locale === locale)}
            source={defs[0]}
          />
        ))}
      </ul>
    </Section>
  );
}

function LabelRow({ name, locale, def, source }: { name: string; locale: string; def?: Taxonomy; source: Taxonomy }) {
  const queryClient = useQueryClient();
  const { multilingual } = useLocales();
  const [label, setLabel] = useState(def?.label ?? '');
  const [singular, setSingular] = useState(def?.labelSingular ?? '');
  const [done, setDone] = useState(false);
  useEffect(() => {
    setLabel(def?.label ?? '');
    setSingular(def?.labelSingular ?? '');
  }, [def?.label, def?.labelSingular]);
  const save = useMutation({
    mutationFn: () =>
      def
        ? unwrap(
            api.PUT('/taxonomies/{name}', {
              params: { path: { name }, query: { locale } },
              body: { label, labelSingular: singular || label },
            }),
          )
        : unwrap(
            api.POST('/taxonomies', {
              body: { translationOf: source.id, locale, label, labelSingular: singular || undefined },
            }),
          ),
    onSuccess: () => {
      setDone(true);
      queryClient.invalidateQueries({ queryKey: keys.taxonomies });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    save.mutate();
  }
  return (
    <li className="row">
      <form className="row__edit" onSubmit={submit} noValidate aria-label={`Labels in ${localeName(locale)}`}>
        {multilingual ? <p className="row__title">{localeName(locale)}</p> : null}
        <div className="inline-form inline-form--3">
          <TextField
            label="Label"
            name={`label-${locale}`}
            value={label}
            onValue={setLabel}
            error={issueFor(save.error, 'label')}
          />
          <TextField
            label="Singular"
            name={`singular-${locale}`}
            value={singular}
            onValue={setSingular}
            error={issueFor(save.error, 'labelSingular')}
          />
          <Button type="submit" size="small" variant={def ? 'secondary' : 'primary'} busy={save.isPending}>
            {def ? 'Save' : 'Add translation'}
          </Button>
        </div>
        <ErrorMessage error={save.error} />
        {done ? <Notice tone="success">Saved.</Notice> : null}
      </form>
    </li>
  );
}

/** hierarchical and collections: one value for the whole taxonomy, every locale. */
function WideSettings({ taxonomy }: { taxonomy: Taxonomy }) {
  const queryClient = useQueryClient();
  const [hierarchical, setHierarchical] = useState(taxonomy.hierarchical);
  const [collections, setCollections] = useState(taxonomy.collections);
  const [done, setDone] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/taxonomies/{name}', {
          params: { path: { name: taxonomy.name } },
          body: { hierarchical, collections },
        }),
      ),
    onSuccess: () => {
      setDone(true);
      queryClient.invalidateQueries({ queryKey: keys.taxonomies });
    },
  });
  return (
    <Section
      id="settings"
      title="Structure and use"
      description="These apply to every language. Collections you untick keep their entries’ terms hidden until you tick them again."
    >
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setDone(false);
          save.mutate();
        }}
      >
        <label className="check check--inline">
          <input type="checkbox" checked={hierarchical} onChange={(e) => setHierarchical(e.target.checked)} />
          <span>Nested terms</span>
        </label>
        <CollectionChecks value={collections} onValue={setCollections} error={issueFor(save.error, 'collections')} />
        <ErrorMessage error={save.error} extra={otherIssues(save.error, ['collections'])} />
        {done ? <Notice tone="success">Saved for every language.</Notice> : null}
        <div className="actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save structure
          </Button>
        </div>
      </form>
    </Section>
  );
}

function DeleteTaxonomy({ taxonomy }: { taxonomy: Taxonomy }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/taxonomies/{name}', { params: { path: { name: taxonomy.name } } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: keys.taxonomies });
      navigate({ to: '/taxonomies' });
    },
  });
  return (
    <Section
      id="delete"
      title="Delete taxonomy"
      description="Removes every language’s labels, all terms and their assignments. Entries stay."
    >
      <ErrorMessage error={remove.error} />
      <ConfirmButton
        label={`Delete ${taxonomy.label}`}
        question="Delete the taxonomy and all its terms?"
        confirmLabel="Delete for good"
        onConfirm={() => remove.mutate()}
        busy={remove.isPending}
      />
    </Section>
  );
}
