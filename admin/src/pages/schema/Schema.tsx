import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { collectionsQuery } from '../../api/content';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { SortableList } from '../../components/SortableList';
import { issueFor, otherIssues } from '../../lib/forms';
import { SupportsChecks } from './SupportsChecks';

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^[^a-z]+/, '')
    .slice(0, 60);

/** Admin: the collections (sidebar order by drag), a new collection, and the way to block types and orphaned tables. */
export function SchemaPage() {
  const queryClient = useQueryClient();
  const list = useQuery(collectionsQuery);
  const [notice, setNotice] = useState<string | null>(null);
  const reorder = useMutation({
    mutationFn: (slugs: string[]) => unwrap(api.POST('/schema/collections/reorder', { body: { slugs } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['schema'] });
      queryClient.invalidateQueries({ queryKey: ['content-model'] });
      setNotice('Sidebar order saved.');
    },
  });
  const items = (list.data?.items ?? []).map((c) => ({ ...c, id: c.slug }));
  return (
    <Page
      title="Schema"
      description="Collections and their fields. Every collection is a real table; changes here alter it at once."
      actions={
        <>
          <Link to="/schema/block-types" className="button button--ghost button--small">
            Block types
          </Link>
          <Link to="/schema/orphans" className="button button--ghost button--small">
            Orphaned tables
          </Link>
        </>
      }
    >
      <NewCollection />
      <Section id="collections" title="Collections" description="Drag to set the order of the sidebar.">
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        <ErrorMessage error={reorder.error} />
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">No collections yet. Create one above: posts, pages, products — anything you publish.</p>
        ) : null}
        <SortableList
          variant="cards"
          ariaLabel="Collections"
          items={items}
          label={(c) => c.label}
          onReorder={(slugs) => reorder.mutate(slugs)}
          render={(c, handle) => (
            <div className="row">
              {handle}
              <div className="row__main">
                <p className="row__title">
                  <Link to="/schema/collections/$slug" params={{ slug: c.slug }}>
                    {c.label}
                  </Link>
                </p>
                <p className="row__meta">
                  <code className="code">{c.slug}</code>
                  <span>{c.fieldCount} fields</span>
                  <span>{c.supports.join(', ') || 'no features'}</span>
                </p>
              </div>
              <div className="row__actions">
                <Link
                  to="/content/$collection"
                  params={{ collection: c.slug }}
                  search={{}}
                  className="button button--ghost button--small"
                >
                  Entries
                </Link>
              </div>
            </div>
          )}
        />
      </Section>
    </Page>
  );
}

function NewCollection() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [singular, setSingular] = useState('');
  const [slug, setSlug] = useState('');
  const [slugTouched, setSlugTouched] = useState(false);
  const [supports, setSupports] = useState<string[]>(['drafts', 'revisions', 'editLock']);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/schema/collections', {
          body: {
            slug,
            label: label.trim(),
            ...(singular.trim() ? { labelSingular: singular.trim() } : {}),
            supports: supports as ('drafts' | 'revisions' | 'editLock' | 'search' | 'seo' | 'comments')[],
            fields: [{ slug: 'title', label: 'Title', type: 'string', required: true, indexed: true }],
          },
        }),
      ),
    onSuccess: (c) => {
      queryClient.invalidateQueries({ queryKey: ['schema'] });
      queryClient.invalidateQueries({ queryKey: ['content-model'] });
      navigate({ to: '/schema/collections/$slug', params: { slug: c.slug } });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  return (
    <Section
      id="new-collection"
      title="New collection"
      description="It starts with a required Title field; add the others next."
    >
      <form className="stack" onSubmit={submit} noValidate>
        <div className="grid-2">
          <TextField
            label="Name"
            name="label"
            placeholder="Posts"
            required
            value={label}
            onValue={(v) => {
              setLabel(v);
              if (!slugTouched) setSlug(slugify(v));
            }}
            error={issueFor(create.error, 'label')}
          />
          <TextField
            label="Name of one entry"
            name="labelSingular"
            optional
            placeholder="Post"
            value={singular}
            onValue={setSingular}
            error={issueFor(create.error, 'labelSingular')}
          />
        </div>
        <TextField
          label="Identifier"
          name="slug"
          hint="Lowercase letters, digits and _; used in the API (/content/identifier) and the table name. It cannot change later."
          required
          spellCheck={false}
          value={slug}
          onValue={(v) => {
            setSlug(v);
            setSlugTouched(true);
          }}
          error={issueFor(create.error, 'slug')}
        />
        <SupportsChecks value={supports} onChange={setSupports} />
        <ErrorMessage error={create.error} extra={otherIssues(create.error, ['label', 'labelSingular', 'slug'])} />
        <div>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!label.trim() || !slug}>
            Create collection
          </Button>
        </div>
      </form>
    </Section>
  );
}
