import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys, type Taxonomy } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { LocaleSelect } from '../../components/LocaleSelect';
import { Page, Section } from '../../components/Page';
import { issueFor, optional, otherIssues } from '../../lib/forms';
import { useLocales } from '../../lib/locales';
import { CollectionChecks } from './CollectionChecks';

/** A machine name from a label: "Blog categories" → "blog_categories". */
export function machineName(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);
}

/** Editors: the taxonomies of the site and a form to add one. */
export function TaxonomiesPage() {
  const { defaultLocale } = useLocales();
  const [locale, setLocale] = useState(defaultLocale);
  const list = useQuery({
    queryKey: [...keys.taxonomies, { locale }],
    queryFn: () => unwrap(api.GET('/taxonomies', { params: { query: { locale, limit: 100 } } })),
  });
  const items = list.data?.items ?? [];
  return (
    <Page
      title="Taxonomies"
      description="Group entries by tags, categories or any other vocabulary. Terms are assigned in the entry editor and shared by every translation of an entry."
    >
      <CreateTaxonomy locale={locale} />
      <Section id="taxonomy-list" title="Your taxonomies">
        <div className="toolbar">
          <LocaleSelect value={locale} onValue={setLocale} label="Show labels in" />
        </div>
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">
            No taxonomies yet. Create “Tags” for free keywords or “Categories” (nested) for sections of your site, and
            choose the collections that use them.
          </p>
        ) : null}
        {items.length ? (
          <ul className="rows" aria-label="Taxonomies">
            {items.map((t) => (
              <TaxonomyRow key={t.name} taxonomy={t} />
            ))}
          </ul>
        ) : null}
      </Section>
    </Page>
  );
}

function TaxonomyRow({ taxonomy: t }: { taxonomy: Taxonomy }) {
  return (
    <li className="row">
      <div className="row__main">
        <p className="row__title">
          <Link to="/taxonomies/$name" params={{ name: t.name }}>
            {t.label}
          </Link>
          {t.hierarchical ? <span className="badge">nested</span> : null}
        </p>
        <p className="row__meta">
          <span className="chip">{t.name}</span>
          <span>{t.collections.length ? `Used by ${t.collections.join(', ')}` : 'Not used by any collection yet'}</span>
          {t.locales.length > 1 ? <span>{t.locales.length} languages</span> : null}
        </p>
      </div>
      <div className="row__actions">
        <Link to="/taxonomies/$name" params={{ name: t.name }} className="button button--ghost button--small">
          Open<span className="visually-hidden"> {t.label}</span>
        </Link>
      </div>
    </li>
  );
}

function CreateTaxonomy({ locale }: { locale: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [label, setLabel] = useState('');
  const [singular, setSingular] = useState('');
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [hierarchical, setHierarchical] = useState(false);
  const [collections, setCollections] = useState<string[]>([]);
  const [local, setLocal] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/taxonomies', {
          body: {
            name: name || machineName(label),
            label: label.trim(),
            labelSingular: optional(singular),
            hierarchical,
            collections,
            locale,
          },
        }),
      ),
    onSuccess: (t) => {
      queryClient.invalidateQueries({ queryKey: keys.taxonomies });
      navigate({ to: '/taxonomies/$name', params: { name: t.name } });
    },
  });
  const shownName = nameTouched ? name : machineName(label);
  function submit(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!label.trim()) problems.label = 'Enter a name people will see, such as “Tags”.';
    if (!/^[a-z][a-z0-9_-]*$/.test(shownName)) problems.name = 'Start with a letter; use a-z, 0-9, _ and -.';
    setLocal(problems);
    if (!Object.keys(problems).length) {
      setName(shownName);
      create.mutate();
    }
  }
  return (
    <Section id="new-taxonomy" title="New taxonomy">
      <form onSubmit={submit} noValidate className="stack">
        <div className="grid-2">
          <TextField
            label="Label"
            name="label"
            required
            placeholder="Tags"
            value={label}
            onValue={setLabel}
            error={local.label ?? issueFor(create.error, 'label')}
          />
          <TextField
            label="Singular label"
            name="labelSingular"
            optional
            placeholder="Tag"
            value={singular}
            onValue={setSingular}
            error={issueFor(create.error, 'labelSingular')}
          />
        </div>
        <TextField
          label="Name"
          hint="Used in the API and in URLs; it cannot change later."
          name="name"
          spellCheck={false}
          value={shownName}
          onValue={(v) => {
            setNameTouched(true);
            setName(v);
          }}
          error={local.name ?? issueFor(create.error, 'name')}
        />
        <label className="check check--inline">
          <input type="checkbox" checked={hierarchical} onChange={(e) => setHierarchical(e.target.checked)} />
          <span>Nested terms (like categories with sub-categories)</span>
        </label>
        <CollectionChecks value={collections} onValue={setCollections} error={issueFor(create.error, 'collections')} />
        <ErrorMessage
          error={create.error}
          extra={otherIssues(create.error, ['label', 'labelSingular', 'name', 'collections'])}
        />
        <div className="actions">
          <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating…">
            Create taxonomy
          </Button>
        </div>
      </form>
    </Section>
  );
}
