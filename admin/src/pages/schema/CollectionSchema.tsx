import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import {
  blockTypesQuery,
  type Collection,
  collectionQuery,
  collectionsQuery,
  type FieldInput,
} from '../../api/content';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { SortableList } from '../../components/SortableList';
import { TypedConfirm } from '../../components/TypedConfirm';
import { typeLabel } from '../../lib/fieldTypes';
import { issueFor } from '../../lib/forms';
import { meQuery } from '../../lib/session';
import { FieldForm } from './FieldForm';
import { SupportsChecks } from './SupportsChecks';
import { fromPatternForm, toPatternForm, UrlPatternField } from './UrlPatternField';

type Supports = Collection['supports'];

/** Admin: one collection's settings and fields (add, edit, rename, reorder by drag, delete). */
export function CollectionSchemaPage({ slug }: { slug: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const c = useQuery(collectionQuery(slug));
  const all = useQuery(collectionsQuery);
  const blocks = useQuery(blockTypesQuery);
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['schema'] });
    await queryClient.invalidateQueries({ queryKey: ['content-model'] });
  };
  const addField = useMutation({
    mutationFn: (body: FieldInput) =>
      unwrap(api.POST('/schema/collections/{slug}/fields', { params: { path: { slug } }, body })),
    onSuccess: async (f) => {
      setAdding(false);
      setNotice(`Added the field ${f.label}.`);
      await refresh();
    },
  });
  const updateField = useMutation({
    mutationFn: ({ field, body }: { field: string; body: FieldInput }) =>
      unwrap(
        api.PUT('/schema/collections/{slug}/fields/{fieldSlug}', {
          params: { path: { slug, fieldSlug: field } },
          body: { ...body, type: undefined },
        }),
      ),
    onSuccess: async (f) => {
      setEditing(null);
      setNotice(`Saved the field ${f.label}.`);
      await refresh();
    },
  });
  const deleteField = useMutation({
    mutationFn: (field: string) =>
      unwrap(
        api.DELETE('/schema/collections/{slug}/fields/{fieldSlug}', { params: { path: { slug, fieldSlug: field } } }),
      ),
    onSuccess: async () => {
      setNotice('Field deleted with its values.');
      await refresh();
    },
  });
  const reorder = useMutation({
    mutationFn: (slugs: string[]) =>
      unwrap(api.POST('/schema/collections/{slug}/fields/reorder', { params: { path: { slug } }, body: { slugs } })),
    onSuccess: refresh,
  });
  const deleteCollection = useMutation({
    mutationFn: () => unwrap(api.DELETE('/schema/collections/{slug}', { params: { path: { slug } } })),
    onSuccess: async () => {
      await refresh();
      navigate({ to: '/schema' });
    },
  });

  if (c.isPending) return <Spinner />;
  if (c.isError) return <ErrorMessage error={c.error} />;
  const col = c.data;
  const collections = (all.data?.items ?? []).map((x) => ({ slug: x.slug, label: x.label }));
  const fields = col.fields.map((f) => ({ ...f, id: f.slug }));

  return (
    <Page
      title={col.label}
      description={
        <>
          <code className="code">/content/{col.slug}</code> · table <code className="code">ec_{col.slug}</code>
        </>
      }
      actions={
        <>
          <Link to="/schema" className="button button--ghost button--small">
            All collections
          </Link>
          <Link
            to="/content/$collection"
            params={{ collection: col.slug }}
            search={{}}
            className="button button--secondary button--small"
          >
            Entries
          </Link>
        </>
      }
    >
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <Settings col={col} onSaved={refresh} />
      <Section
        id="fields"
        title={`Fields (${col.fields.length})`}
        description="Drag to change the order of the entry form. Renaming keeps the values; deleting removes them."
      >
        <ErrorMessage error={reorder.error ?? deleteField.error} />
        {fields.length === 0 ? <p className="empty">No fields yet: add the first one below.</p> : null}
        <SortableList
          variant="cards"
          ariaLabel="Fields"
          items={fields}
          label={(f) => f.label}
          onReorder={(slugs) => reorder.mutate(slugs)}
          render={(f, handle) =>
            editing === f.slug ? (
              <div className="row row--edit">
                <FieldForm
                  initial={f}
                  collections={collections}
                  blockTypes={blocks.data?.items ?? []}
                  busy={updateField.isPending}
                  error={updateField.error}
                  submitLabel="Save field"
                  onCancel={() => {
                    setEditing(null);
                    updateField.reset();
                  }}
                  onSubmit={(body) => updateField.mutate({ field: f.slug, body })}
                />
              </div>
            ) : (
              <div className="row">
                {handle}
                <div className="row__main">
                  <p className="row__title">{f.label}</p>
                  <p className="row__meta">
                    <code className="code">{f.slug}</code>
                    <span>{typeLabel(f.type)}</span>
                    {f.required ? <span className="pill">required</span> : null}
                    {f.unique ? <span className="pill">unique</span> : null}
                    {f.indexed ? <span className="pill">indexed</span> : null}
                    {f.searchable ? <span className="pill">searchable</span> : null}
                    {f.translatable ? null : <span className="pill">shared across translations</span>}
                    {typeof f.validation?.targetCollection === 'string' ? (
                      <span>→ {String(f.validation.targetCollection)}</span>
                    ) : null}
                  </p>
                </div>
                <div className="row__actions">
                  <Button size="small" variant="ghost" onClick={() => setEditing(f.slug)}>
                    Edit<span className="visually-hidden"> {f.label}</span>
                  </Button>
                  <TypedConfirm
                    word={f.slug}
                    action={`Delete ${f.label}`}
                    busy={deleteField.isPending}
                    onConfirm={() => deleteField.mutate(f.slug)}
                    explanation={
                      <p>
                        The column <code className="code">{f.slug}</code> is dropped: its value in every entry, every
                        locale and every revision is lost and cannot be restored. API clients reading{' '}
                        <code className="code">{f.slug}</code> get nothing.
                      </p>
                    }
                  />
                </div>
              </div>
            )
          }
        />
        {adding ? (
          <div className="subform">
            <h3 className="subform__title">New field</h3>
            <FieldForm
              collections={collections}
              blockTypes={blocks.data?.items ?? []}
              busy={addField.isPending}
              error={addField.error}
              submitLabel="Add field"
              onCancel={() => {
                setAdding(false);
                addField.reset();
              }}
              onSubmit={(body) => addField.mutate(body)}
            />
          </div>
        ) : (
          <Button variant="primary" onClick={() => setAdding(true)}>
            Add a field
          </Button>
        )}
      </Section>
      <Section id="danger" title="Delete the collection">
        <TypedConfirm
          word={col.slug}
          action={`Delete ${col.label}`}
          busy={deleteCollection.isPending}
          onConfirm={() => deleteCollection.mutate()}
          explanation={
            <p>
              The table <code className="code">ec_{col.slug}</code> with every entry, translation, revision and link is
              removed for good, and <code className="code">/content/{col.slug}</code> answers 404 from then on.
            </p>
          }
        />
        <ErrorMessage error={deleteCollection.error} />
      </Section>
    </Page>
  );
}

function Settings({ col, onSaved }: { col: Collection; onSaved: () => Promise<void> }) {
  const [label, setLabel] = useState(col.label);
  const [singular, setSingular] = useState(col.labelSingular);
  const [description, setDescription] = useState(col.description ?? '');
  const [icon, setIcon] = useState(col.icon ?? '');
  const [supports, setSupports] = useState<string[]>(col.supports);
  const [pattern, setPattern] = useState(() => toPatternForm(col.urlPattern));
  const me = useQuery(meQuery);
  const locales = me.data?.i18n.locales ?? [];
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/schema/collections/{slug}', {
          params: { path: { slug: col.slug } },
          body: {
            label: label.trim(),
            labelSingular: singular.trim(),
            description: description.trim() || null,
            icon: icon.trim() || null,
            supports: supports as Supports,
            urlPattern: fromPatternForm(pattern),
          },
        }),
      ),
    onSuccess: async () => {
      setSaved(true);
      await onSaved();
    },
  });
  const droppingRevisions = col.supports.includes('revisions') && !supports.includes('revisions');
  return (
    <Section id="settings" title="Settings">
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          save.mutate();
        }}
      >
        <div className="grid-2">
          <TextField
            label="Name"
            name="label"
            required
            value={label}
            onValue={setLabel}
            error={issueFor(save.error, 'label')}
          />
          <TextField
            label="Name of one entry"
            name="labelSingular"
            value={singular}
            onValue={setSingular}
            error={issueFor(save.error, 'labelSingular')}
          />
        </div>
        <div className="grid-2">
          <TextField label="Description" name="description" optional value={description} onValue={setDescription} />
          <TextField
            label="Icon"
            name="icon"
            optional
            hint="An emoji or icon name shown in the sidebar."
            value={icon}
            onValue={setIcon}
          />
        </div>
        <UrlPatternField
          value={pattern}
          onChange={setPattern}
          locales={locales}
          defaultLocale={me.data?.i18n.defaultLocale ?? locales[0] ?? 'en'}
          issue={(l) => issueFor(save.error, l ? `urlPattern.${l}` : 'urlPattern')}
        />
        <SupportsChecks value={supports} onChange={setSupports} />
        {supports.includes('seo') && !fromPatternForm(pattern) ? (
          <p className="field__hint">
            Entries without an address are left out of sitemaps; the SEO panel still edits their titles and
            descriptions.
          </p>
        ) : null}
        {droppingRevisions ? (
          <p className="alert alert--warn">
            Without revisions, saving a published entry changes the live site at once, and pending drafts can no longer
            be staged.
          </p>
        ) : null}
        <ErrorMessage error={save.error} />
        {saved ? <Notice tone="success">Settings saved.</Notice> : null}
        <div>
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save settings
          </Button>
        </div>
      </form>
    </Section>
  );
}
