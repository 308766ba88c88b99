import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { CollectionModel, ContentItem, Revision, RevisionList } from '../../../api/content';
import { Button } from '../../../components/Button';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { ErrorMessage, Spinner } from '../../../components/Feedback';
import { formatDateTime } from '../../../lib/format';
import { otherIssues } from '../../../lib/forms';

export function Panel({
  title,
  children,
  id,
  open = false,
}: {
  title: string;
  children: ReactNode;
  id: string;
  open?: boolean;
}) {
  return (
    <details className="panel card" id={id} open={open}>
      <summary className="panel__summary">{title}</summary>
      <div className="panel__body">{children}</div>
    </details>
  );
}

/** Every locale of the translation group; missing ones can be created from this entry. */
export function TranslationsPanel({
  c,
  item,
  locales,
  canCreate,
}: {
  c: CollectionModel;
  item: ContentItem;
  locales: string[];
  canCreate: boolean;
}) {
  const navigate = useNavigate();
  const tr = useQuery({
    queryKey: ['content', c.slug, 'translations', item.id],
    queryFn: () =>
      unwrap(
        api.GET('/content/{collection}/{id}/translations', { params: { path: { collection: c.slug, id: item.id } } }),
      ),
  });
  const create = useMutation({
    mutationFn: (locale: string) =>
      unwrap(
        api.POST('/content/{collection}', {
          params: { path: { collection: c.slug } },
          body: { locale, translationOf: item.id, data: item.data },
        }),
      ),
    onSuccess: (res) => navigate({ to: '/content/$collection/$id', params: { collection: c.slug, id: res.item.id } }),
  });
  const have = new Map((tr.data?.items ?? []).map((t) => [t.locale, t]));
  return (
    <Panel id="translations" title={`Translations (${have.size || 1} of ${locales.length})`} open>
      {tr.isPending ? <Spinner /> : null}
      <ul className="mini-rows">
        {locales.map((l) => {
          const t = have.get(l);
          return (
            <li key={l} className="mini-row">
              <span className="badge">{l}</span>
              {t ? (
                t.id === item.id ? (
                  <span>
                    This entry <span className="muted small">({t.status})</span>
                  </span>
                ) : (
                  <Link to="/content/$collection/$id" params={{ collection: c.slug, id: t.id }}>
                    {t.slug ?? t.id} <span className="muted small">({t.status})</span>
                  </Link>
                )
              ) : canCreate ? (
                <Button size="small" busy={create.isPending && create.variables === l} onClick={() => create.mutate(l)}>
                  Translate into {l}
                </Button>
              ) : (
                <span className="muted small">Not translated</span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="field__hint">
        A new translation starts as a draft with this entry's values and the slug{' '}
        <code className="code">{item.slug}-locale</code>.
      </p>
      <ErrorMessage error={create.error} extra={otherIssues(create.error, [])} />
    </Panel>
  );
}

/** Entries this one links to, per reference field. */
export function ReferencesPanel({ c, item }: { c: CollectionModel; item: ContentItem }) {
  const fields = c.fields.filter((f) => f.type === 'reference' && item.references?.[f.slug]);
  if (!fields.length) return null;
  return (
    <Panel id="references" title="Linked entries">
      {fields.map((f) => {
        const page = item.references?.[f.slug];
        return (
          <div key={f.slug} className="mini-group">
            <h3 className="mini-group__title">{f.label}</h3>
            {page?.items.length ? (
              <ul className="mini-rows">
                {page.items.map((e) => (
                  <li key={e.id} className="mini-row">
                    <Link to="/content/$collection/$id" params={{ collection: e.collection, id: e.id }}>
                      {e.title || e.slug || e.id}
                    </Link>
                    <span className="muted small">
                      {e.collection} · {e.status}
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted small">Nothing linked.</p>
            )}
            {page?.nextCursor ? (
              <p className="muted small">More than {page.items.length} linked; the first ones are shown.</p>
            ) : null}
          </div>
        );
      })}
    </Panel>
  );
}

const KIND: Record<Revision['kind'], string> = {
  save: 'Saved',
  draft: 'Draft saved',
  publish: 'Published',
  restore: 'Restored',
};

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A revision's saver, as the row names them. */
function saverOf(r: Revision): string {
  if (r.createdByName) return r.createdByName;
  return r.createdBy ? 'a user no longer listed' : 'the system';
}

/** Field labels, in a sentence ("Title, Body and Slug"). */
function labelList(labels: string[]): string {
  return labels.length < 2 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/**
 * Revisions newest first (the first few, then older ones on request): who saved each, which fields
 * that save changed, and which differ from the entry now; restoring one brings its values back (as
 * a draft on a live entry).
 */
export function RevisionsPanel({
  c,
  item,
  canRestore,
  onRestore,
  busy,
}: {
  c: CollectionModel;
  item: ContentItem;
  canRestore: boolean;
  onRestore: (revisionId: string) => void;
  busy: boolean;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const revs = useInfiniteQuery({
    queryKey: ['content', c.slug, 'revisions', item.id, item.updatedAt],
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: RevisionList) => last.nextCursor,
    queryFn: ({ pageParam }): Promise<RevisionList> =>
      unwrap(
        api.GET('/content/{collection}/{id}/revisions', {
          // A short first page keeps the panel near the top of the side column; older ones come in twenties.
          params: {
            path: { collection: c.slug, id: item.id },
            query: { cursor: pageParam, limit: pageParam ? 20 : 5 },
          },
        }),
      ),
  });
  const items = revs.data?.pages.flatMap((p) => p.items) ?? [];
  const label = (slug: string) => (slug === 'slug' ? 'Slug' : (c.fields.find((f) => f.slug === slug)?.label ?? slug));
  return (
    <Panel id="revisions" title="Revisions" open>
      {revs.isPending ? <Spinner /> : null}
      {revs.isError ? <ErrorMessage error={revs.error} /> : null}
      {revs.isSuccess && !items.length ? (
        <p className="muted small">No revisions yet: they are recorded on every save.</p>
      ) : null}
      <ol className="mini-rows">
        {items.map((r) => {
          const differs = [
            ...(sameValue(r.slug, item.slug) ? [] : ['slug']),
            ...c.fields.filter((f) => !sameValue(r.data[f.slug], item.data[f.slug])).map((f) => f.slug),
          ];
          const changed = r.changedFields;
          return (
            <li key={r.id} className="mini-row mini-row--stack rev">
              <div className="mini-row__line">
                <span>
                  <strong>{KIND[r.kind]}</strong> <span className="muted small">{formatDateTime(r.createdAt)}</span>
                </span>
                {r.live ? <span className="pill pill--published">live</span> : null}
                {r.draft ? <span className="pill pill--draft">draft</span> : null}
              </div>
              <p className="rev__who small">by {saverOf(r)}</p>
              <p className="rev__changed small">
                {changed === null
                  ? 'The earliest revision kept.'
                  : changed.length
                    ? `Changed ${labelList(changed.map(label))}.`
                    : 'No field changed.'}
              </p>
              <div className="mini-row__line">
                {differs.length ? (
                  <Button
                    size="small"
                    variant="ghost"
                    aria-expanded={open === r.id}
                    onClick={() => setOpen(open === r.id ? null : r.id)}
                  >
                    {open === r.id ? 'Hide' : 'Show'} how {labelList(differs.map(label))}{' '}
                    {differs.length === 1 ? 'differs' : 'differ'} from now
                  </Button>
                ) : (
                  <span className="muted small">Same as now.</span>
                )}
                {canRestore && differs.length ? (
                  <ConfirmButton
                    label="Restore"
                    question="Bring these values back?"
                    confirmLabel="Restore"
                    busy={busy}
                    onConfirm={() => onRestore(r.id)}
                  />
                ) : null}
              </div>
              {open === r.id ? (
                <dl className="rev-diff">
                  {differs.map((k) => (
                    <div key={k}>
                      <dt>{label(k)}</dt>
                      <dd>{preview(k === 'slug' ? r.slug : r.data[k])}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
            </li>
          );
        })}
      </ol>
      {revs.hasNextPage ? (
        <Button size="small" busy={revs.isFetchingNextPage} onClick={() => revs.fetchNextPage()}>
          Older revisions
        </Button>
      ) : null}
    </Panel>
  );
}

function preview(v: unknown): string {
  if (v === undefined || v === null || v === '') return '(empty)';
  if (typeof v === 'string') return v.length > 160 ? `${v.slice(0, 160)}…` : v;
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

/** The live version beside the pending draft, changed fields only. */
export function ComparePanel({ c, item }: { c: CollectionModel; item: ContentItem }) {
  const cmp = useQuery({
    queryKey: ['content', c.slug, 'compare', item.id, item.updatedAt],
    queryFn: () =>
      unwrap(api.GET('/content/{collection}/{id}/compare', { params: { path: { collection: c.slug, id: item.id } } })),
  });
  const label = (slug: string) => (slug === 'slug' ? 'Slug' : (c.fields.find((f) => f.slug === slug)?.label ?? slug));
  return (
    <section className="card compare" aria-labelledby="compare-title">
      <h2 id="compare-title" className="card__title">
        Live version and draft
      </h2>
      {cmp.isPending ? <Spinner /> : null}
      {cmp.isError ? <ErrorMessage error={cmp.error} /> : null}
      {cmp.data && !cmp.data.changedFields.length ? (
        <p className="muted">The draft is the same as the live version.</p>
      ) : null}
      {cmp.data?.changedFields.length ? (
        <table className="table compare__table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Live</th>
              <th scope="col">Draft</th>
            </tr>
          </thead>
          <tbody>
            {cmp.data.changedFields.map((k) => (
              <tr key={k}>
                <th scope="row">{label(k)}</th>
                <td data-label="Live">{preview(k === 'slug' ? cmp.data.live?.slug : cmp.data.live?.data[k])}</td>
                <td data-label="Draft">{preview(k === 'slug' ? cmp.data.draft?.slug : cmp.data.draft?.data[k])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
