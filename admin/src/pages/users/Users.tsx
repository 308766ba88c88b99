import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { Me } from '../../api/auth';
import { api, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { ROLES } from '../../lib/roles';
import { methodsQuery } from '../../lib/session';
import { InviteSection } from './Invites';
import { ProvidersSection } from './Providers';
import { UserRow } from './UserRow';

const PAGE_SIZE = 25;

export interface UsersSearch {
  q?: string;
  role?: number;
}

/**
 * Admin: find people (server-side search and cursor pages), invite, change roles, disable, recover;
 * and the login providers people sign in with (callback URLs to register).
 */
export function UsersPage({ me, search }: { me: Me; search: UsersSearch }) {
  const navigate = useNavigate();
  const [text, setText] = useState(search.q ?? '');
  // Cursors of the pages before the current one (a stack: Previous pops it).
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);

  // Typing searches after a short pause; the query lives in the address so it can be shared.
  useEffect(() => {
    const timer = setTimeout(() => {
      const q = text.trim() || undefined;
      if (q !== search.q) navigate({ to: '/users', search: (prev) => ({ ...prev, q }), replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, search.q, navigate]);

  // A new search starts at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on filter change only
  useEffect(() => setCursors([]), [search.q, search.role]);

  const gateway = useQuery(methodsQuery).data?.mode === 'edge-access';
  const list = useQuery({
    queryKey: ['users', { q: search.q, role: search.role, cursor }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/users', {
          params: { query: { search: search.q, role: search.role, cursor, limit: PAGE_SIZE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const items = list.data?.items ?? [];
  const pageNumber = cursors.length + 1;
  const report = {
    notice: (message: string) => {
      setActionError(null);
      setNotice(message);
    },
    error: (err: unknown) => {
      setNotice(null);
      setActionError(err);
    },
  };

  return (
    <Page title="Users" description="Everyone who can sign in to this site, and what they may do.">
      {/* Behind an edge access gateway people arrive through the gateway, never by invitation. */}
      {gateway ? null : <InviteSection />}
      <Section id="people" title="People">
        <search className="filters">
          <TextField label="Search by name or email" name="search" type="search" value={text} onValue={setText} />
          <SelectField
            label="Role"
            name="role"
            value={search.role ? String(search.role) : ''}
            onValue={(v) =>
              navigate({
                to: '/users',
                search: (prev) => ({ ...prev, role: v ? Number(v) : undefined }),
                replace: true,
              })
            }
          >
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r.level} value={r.level}>
                {r.name}
              </option>
            ))}
          </SelectField>
        </search>
        <ErrorMessage error={actionError} />
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {list.isPending ? <Spinner label="Loading users…" /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">{search.q || search.role ? 'Nobody matches this search.' : 'No users yet.'}</p>
        ) : null}
        {items.length ? (
          <div className="table-wrap">
            <table className="table" aria-describedby="users-page-status">
              <caption className="visually-hidden">Users, page {pageNumber}</caption>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Passkeys</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody aria-busy={list.isFetching || undefined}>
                {items.map((u) => (
                  <UserRow key={u.id} user={u} isSelf={u.id === me.user.id} report={report} />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <nav className="pager" aria-label="Pages of users">
          <Button size="small" disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </Button>
          <span id="users-page-status" className="pager__status" aria-live="polite">
            Page {pageNumber}
            {list.isFetching && !list.isPending ? ' · updating…' : ''}
          </span>
          <Button
            size="small"
            disabled={!list.data?.nextCursor}
            onClick={() => {
              const next = list.data?.nextCursor;
              if (next) setCursors((c) => [...c, next]);
            }}
          >
            Next
          </Button>
        </nav>
      </Section>
      {/* The gateway mode has no login providers. */}
      {gateway ? null : <ProvidersSection />}
    </Page>
  );
}
