import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Me } from '../api/auth';
import { api, unwrap } from '../api/client';
import { contentModelQuery, type EntrySummary, entryNoun } from '../api/content';
import { ErrorMessage, Spinner } from '../components/Feedback';
import { formatDateTime } from '../lib/format';
import { contentRights } from '../lib/permissions';
import { formatInSiteZone } from '../lib/timezone';

/** The content half of the dashboard: quick create, recent edits, my drafts, drafts to review, what goes live next. */
export function DashboardContent({ me }: { me: Me }) {
  const rights = contentRights(me);
  const model = useQuery(contentModelQuery());
  const dash = useQuery({
    queryKey: ['content', 'dashboard'],
    queryFn: () => unwrap(api.GET('/admin/content/dashboard')),
    staleTime: 10_000,
  });
  const label = (slug: string) => model.data?.collections.find((c) => c.slug === slug)?.labelSingular ?? slug;
  const collections = model.data?.collections ?? [];
  return (
    <>
      {rights.canCreate ? (
        <section className="card quick-create" aria-labelledby="quick-create">
          <h2 id="quick-create" className="card__title">
            Write something
          </h2>
          {model.isPending ? <Spinner /> : null}
          {model.isSuccess && !collections.length ? (
            <p className="card__lead">
              There is nothing to write in yet.{' '}
              {rights.canManageSchema ? (
                <>
                  <Link to="/schema">Create a collection</Link> (posts, pages …) first.
                </>
              ) : (
                'An Admin creates collections first.'
              )}
            </p>
          ) : null}
          <div className="actions">
            {collections.map((c) => (
              <Link
                key={c.slug}
                to="/content/$collection/$id"
                params={{ collection: c.slug, id: 'new' }}
                search={{}}
                className="button button--secondary button--small"
              >
                New {entryNoun(c)}
                {entryNoun(c) === 'entry' ? ` (${c.label})` : ''}
              </Link>
            ))}
          </div>
        </section>
      ) : null}
      {dash.isError ? <ErrorMessage error={dash.error} /> : null}
      {dash.data ? (
        <div className="tiles tiles--lists">
          <EntryTile
            id="recent"
            title="Recent edits"
            items={dash.data.recent}
            label={label}
            empty="Nothing edited yet."
          />
          <EntryTile
            id="mine"
            title="Your drafts"
            items={dash.data.mine}
            label={label}
            empty="No drafts of yours: everything is published."
          />
          {dash.data.review ? (
            <EntryTile
              id="review"
              title="Waiting for review"
              items={dash.data.review}
              label={label}
              empty="No contributor drafts are waiting."
              author
            />
          ) : null}
          <EntryTile
            id="scheduled"
            title="Scheduled"
            items={dash.data.scheduled}
            label={label}
            empty="Nothing is scheduled."
            when
          />
        </div>
      ) : null}
    </>
  );
}

function EntryTile({
  id,
  title,
  items,
  label,
  empty,
  author,
  when,
}: {
  id: string;
  title: string;
  items: EntrySummary[];
  label: (slug: string) => string;
  empty: string;
  author?: boolean;
  when?: boolean;
}) {
  return (
    <section className="card tile" aria-labelledby={`tile-${id}`} data-testid={`dash-${id}`}>
      <h2 id={`tile-${id}`} className="card__title">
        {title}
      </h2>
      {items.length ? (
        <ul className="mini-rows">
          {items.map((e) => (
            <li key={e.id} className="mini-row mini-row--stack">
              <Link to="/content/$collection/$id" params={{ collection: e.collection, id: e.id }} search={{}}>
                {e.title || e.slug || e.id}
              </Link>
              <span className="muted small">
                {label(e.collection)} · {e.status}
                {author && e.authorName ? ` · by ${e.authorName}` : ''}
                {' · '}
                {when ? formatInSiteZone(e.scheduledAt) : formatDateTime(e.updatedAt)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="card__lead">{empty}</p>
      )}
    </section>
  );
}
