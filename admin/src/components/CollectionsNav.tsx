import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Me } from '../api/auth';
import { contentModelQuery } from '../api/content';
import { CONTRIBUTOR } from '../lib/permissions';

/** The collections in their sidebar order, each with its number of entries (trash not counted). */
export function CollectionsNav({ me }: { me: Me }) {
  const writer = me.user.role >= CONTRIBUTOR;
  const model = useQuery({ ...contentModelQuery(), enabled: writer });
  if (!writer) return null;
  const list = model.data?.collections ?? [];
  return (
    <div className="sidebar__sub">
      <h2 className="sidebar__heading">Content</h2>
      {model.isError ? <p className="sidebar__note">Collections could not be loaded.</p> : null}
      {model.isSuccess && !list.length ? (
        <p className="sidebar__note">
          No collections yet.{me.user.role >= 50 ? ' Create one in Schema.' : ' An Admin creates them.'}
        </p>
      ) : null}
      <ul>
        {list.map((c) => (
          <li key={c.slug}>
            <Link
              to="/content/$collection"
              params={{ collection: c.slug }}
              search={{}}
              className="sidebar__link sidebar__link--count"
              activeProps={{
                className: 'sidebar__link sidebar__link--count sidebar__link--active',
                'aria-current': 'page',
              }}
            >
              <span>
                {c.icon ? <span aria-hidden="true">{c.icon} </span> : null}
                {c.label}
              </span>
              <span className="count">
                {c.counts.all.toLocaleString()}
                <span className="visually-hidden"> entries</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
