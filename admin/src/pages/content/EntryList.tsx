import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Me } from '../../api/auth';
import { api, unwrap } from '../../api/client';
import { type ContentItem, type ContentList, contentModelQuery, entryNoun, entryTitle } from '../../api/content';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { contentRights } from '../../lib/permissions';
import { useShortcuts } from '../../lib/shortcuts';
import { markDataArrived, useRenderTiming } from '../../lib/timing';
import { type BulkAction, BulkBar, BulkReport, type BulkResult, runBulk } from './BulkBar';
import { ListSearchResults } from './ListSearchResults';
import { ListToolbar } from './ListToolbar';
import type { EntryListSearch } from './listSearch';
import { StatusPill } from './StatusPill';

const PAGE = 100;
const ROW_HEIGHT = 53;

/**
 * One collection's entries: server-side cursor pages, virtualised rows in the page's own scroll
 * (no inner scroll box) with the position in view always shown, filters in the address, bulk
 * actions, and in the trash each row's own Restore and Delete.
 */
export function EntryListPage({ me, collection, search }: { me: Me; collection: string; search: EntryListSearch }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const rights = contentRights(me);
  const base = useQuery(contentModelQuery());
  const locale = search.locale ?? base.data?.i18n.defaultLocale ?? '';
  const model = useQuery({ ...contentModelQuery(locale), enabled: Boolean(locale) });
  const c = (model.data ?? base.data)?.collections.find((x) => x.slug === collection);
  const trash = search.view === 'trash';
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<{ action: BulkAction; done: number; total: number; results?: BulkResult[] } | null>(
    null,
  );
  const listRef = useRef<HTMLDivElement>(null);

  const setSearch = (patch: Partial<EntryListSearch>) =>
    navigate({
      to: '/content/$collection',
      params: { collection },
      search: { ...search, ...patch, cursor: undefined },
      replace: true,
    });

  /**
   * Where this view started. The address follows the reader's position as they
   * scroll (so a reload or a shared link resumes there), but that must not
   * restart the loaded list: the list restarts only when the filters change.
   */
  const [start, setStart] = useState(search.cursor);
  const query = {
    locale: search.locale,
    status: trash ? undefined : search.status,
    orderBy: search.orderBy,
    order: search.order,
    fieldFilters: search.filters,
    bylineId: search.byline,
    // A byline linked to a person also finds that person's entries without credits.
    includeAuthorByline: search.byline ? 'true' : undefined,
    term: search.term,
    limit: PAGE,
  };
  // A search replaces the list with ranked matches (collections with full-text search only).
  const searching = Boolean(search.q && !trash && c?.supports.includes('search'));
  const list = useInfiniteQuery({
    queryKey: ['content', collection, trash ? 'trash' : 'list', query, start ?? ''],
    initialPageParam: start,
    getNextPageParam: (last: ContentList) => last.nextCursor,
    queryFn: async ({ pageParam }): Promise<ContentList> => {
      const params = { path: { collection }, query: { ...query, cursor: pageParam } };
      const data = await unwrap(
        trash ? api.GET('/content/{collection}/trash', { params }) : api.GET('/content/{collection}', { params }),
      );
      markDataArrived('entry-list');
      return data;
    },
    enabled: Boolean(c) && !searching,
  });

  const items = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  // The rows scroll with the page: the virtualiser needs where the list starts in it, which moves
  // when something appears above (a bulk report, the selection bar).
  const [listTop, setListTop] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (top !== listTop) setListTop(top);
  });
  const virtual = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: listTop,
  });
  const rows = virtual.getVirtualItems();
  /** The rows in view (without the ones rendered ahead), for the position line. */
  const inView = virtual.range;
  useRenderTiming('entry-list', rows.length > 0);

  // Load the next page before the reader reaches the end.
  const lastIndex = rows.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= items.length - 30 && list.hasNextPage && !list.isFetchingNextPage) list.fetchNextPage();
  }, [lastIndex, items.length, list]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: restart only when the view changes
  useEffect(() => setStart(search.cursor), [collection, trash, JSON.stringify(query)]);
  // "Back to the first page" clears the cursor: start over from the top.
  const atTop = search.cursor === undefined;
  useEffect(() => {
    if (atTop) setStart(undefined);
  }, [atTop]);

  // Keep the page at the top of the view in the address (replacing, not adding history).
  const topPage = Math.floor((rows[0]?.index ?? 0) / PAGE);
  useEffect(() => {
    const pageParams = list.data?.pageParams as Array<string | undefined> | undefined;
    if (!pageParams || topPage >= pageParams.length) return;
    const cursor = pageParams[topPage];
    if (cursor === search.cursor) return;
    const t = setTimeout(
      () =>
        navigate({
          to: '/content/$collection',
          params: { collection },
          search: { ...search, cursor },
          replace: true,
        }),
      400,
    );
    return () => clearTimeout(t);
  }, [topPage, list.data?.pageParams, search, collection, navigate]);

  // A different view starts with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on view change only
  useEffect(() => setSelected(new Set()), [collection, trash, JSON.stringify(query)]);

  useShortcuts([
    {
      key: 'n',
      run: () => {
        if (rights.canCreate)
          navigate({ to: '/content/$collection/$id', params: { collection, id: 'new' }, search: { locale } });
      },
    },
  ]);

  if (base.isPending) return <Spinner label="Loading…" />;
  if (base.isError) return <ErrorMessage error={base.error} />;
  if (!c) {
    return (
      <Page title="Collection not found">
        <p className="empty">There is no collection "{collection}". It may have been deleted or renamed.</p>
      </Page>
    );
  }

  const titleOf = (i: ContentItem) => entryTitle(i, c.titleField);
  const allLoadedSelected = items.length > 0 && items.every((i) => selected.has(i.id));
  const total = trash ? c.counts.trashed : search.status ? c.counts[search.status] : c.counts.all;
  const filtered = Boolean(search.status || search.filters || search.byline || search.term);
  const bulkActions: BulkAction[] = trash
    ? ['restore', ...(rights.canDeleteForever ? (['permanent'] as const) : [])]
    : rights.canPublish(null)
      ? ['publish', 'unpublish', 'trash']
      : ['trash'];

  /** Runs an action over the selected entries, or over the one row it was asked for in. */
  async function run(action: BulkAction, only?: ContentItem) {
    const chosen = (only ? [only] : items.filter((i) => selected.has(i.id))).map((i) => ({
      id: i.id,
      title: titleOf(i),
    }));
    setBulk({ action, done: 0, total: chosen.length });
    const results = await runBulk(collection, chosen, action, (done) => setBulk((b) => (b ? { ...b, done } : b)));
    setBulk({ action, done: results.length, total: chosen.length, results });
    if (!only) setSelected(new Set(results.filter((r) => !r.ok).map((r) => r.id)));
    await queryClient.invalidateQueries({ queryKey: ['content', collection] });
    await queryClient.invalidateQueries({ queryKey: ['content-model'] });
  }

  const locales = (base.data?.i18n.locales ?? []) as string[];
  return (
    <Page
      title={trash ? `${c.label}: trash` : c.label}
      description={
        trash
          ? 'Entries here are off the site. Restore them as drafts, or (Admins) delete them for good.'
          : (c.description ??
            `${c.counts.all.toLocaleString()} entries · ${c.counts.draft.toLocaleString()} drafts · ${c.counts.published.toLocaleString()} published`)
      }
      actions={
        <>
          {trash ? (
            <Link
              to="/content/$collection"
              params={{ collection }}
              search={{ locale: search.locale }}
              className="button button--ghost button--small"
            >
              Back to entries
            </Link>
          ) : (
            <Link
              to="/content/$collection"
              params={{ collection }}
              search={{ view: 'trash', locale: search.locale }}
              className="button button--ghost button--small"
            >
              Trash ({c.counts.trashed.toLocaleString()})
            </Link>
          )}
          {rights.canCreate && !trash ? (
            <Link
              to="/content/$collection/$id"
              params={{ collection, id: 'new' }}
              search={{ locale }}
              className="button button--primary"
              aria-keyshortcuts="n"
            >
              New {entryNoun(c)}
            </Link>
          ) : null}
        </>
      }
    >
      <ListToolbar collection={c} locales={locales} locale={locale} search={search} onSearch={setSearch} />
      {searching ? (
        <ListSearchResults
          collection={collection}
          locale={locale}
          q={search.q ?? ''}
          status={search.status}
          otherFilters={Boolean(search.filters || search.byline || search.term || search.orderBy)}
          onClear={() => setSearch({ q: undefined })}
        />
      ) : null}
      {bulk?.results ? <BulkReport action={bulk.action} results={bulk.results} onClose={() => setBulk(null)} /> : null}
      {bulk && !bulk.results ? (
        <p className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          Working… {bulk.done} of {bulk.total}
        </p>
      ) : null}
      {selected.size ? (
        <BulkBar
          count={selected.size}
          actions={bulkActions}
          busy={Boolean(bulk && !bulk.results)}
          onRun={run}
          onClear={() => setSelected(new Set())}
        />
      ) : null}
      {searching ? null : (
        <>
          {list.isError ? <ErrorMessage error={list.error} /> : null}
          {list.isPending ? <Spinner label="Loading entries…" /> : null}
          {list.isSuccess && items.length === 0 ? (
            <EmptyList
              trash={trash}
              filtered={filtered}
              noun={entryNoun(c)}
              canCreate={rights.canCreate}
              onReset={() =>
                navigate({
                  to: '/content/$collection',
                  params: { collection },
                  search: { locale: search.locale, view: search.view },
                })
              }
            />
          ) : null}
          {items.length ? (
            <div className="vlist card" ref={listRef} data-testid="entry-list">
              <table className="table vtable" aria-rowcount={total + 1}>
                <caption className="visually-hidden">
                  {c.label}: {items.length} of {total} loaded
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className="cell-check">
                      <input
                        type="checkbox"
                        aria-label="Select every loaded entry"
                        checked={allLoadedSelected}
                        onChange={(e) => setSelected(e.target.checked ? new Set(items.map((i) => i.id)) : new Set())}
                      />
                    </th>
                    <th scope="col">Title</th>
                    <th scope="col">Status</th>
                    <th scope="col">Locale</th>
                    <th scope="col">{trash ? 'Trashed' : 'Updated'}</th>
                    {trash ? (
                      <th scope="col" className="cell-actions">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {rows[0] && rows[0].start > listTop ? (
                    <tr className="vspacer" style={{ height: rows[0].start - listTop }} />
                  ) : null}
                  {rows.map((r) => {
                    const item = items[r.index];
                    return (
                      <tr key={item.id} data-index={r.index} ref={virtual.measureElement} aria-rowindex={r.index + 2}>
                        <td className="cell-check">
                          <input
                            type="checkbox"
                            aria-label={`Select ${titleOf(item)}`}
                            checked={selected.has(item.id)}
                            onChange={(e) => {
                              const next = new Set(selected);
                              if (e.target.checked) next.add(item.id);
                              else next.delete(item.id);
                              setSelected(next);
                            }}
                          />
                        </td>
                        <td data-label="Title">
                          <Link
                            to="/content/$collection/$id"
                            params={{ collection, id: item.id }}
                            className="cell-title"
                          >
                            {titleOf(item)}
                          </Link>
                          <span className="cell-sub">{item.slug}</span>
                        </td>
                        <td data-label="Status">
                          <StatusPill item={item} />
                        </td>
                        <td data-label="Locale">
                          <span className="pill">{item.locale}</span>
                        </td>
                        <td data-label={trash ? 'Trashed' : 'Updated'} className="cell-date">
                          {formatDateTime(trash ? item.trashedAt : item.updatedAt)}
                        </td>
                        {trash ? (
                          <td className="cell-actions">
                            <TrashActions
                              title={titleOf(item)}
                              canRestore={rights.canEdit(item)}
                              canDelete={rights.canDeleteForever}
                              busy={Boolean(bulk && !bulk.results)}
                              onRun={(action) => void run(action, item)}
                            />
                          </td>
                        ) : null}
                      </tr>
                    );
                  })}
                  {rows.length ? (
                    <tr
                      className="vspacer"
                      style={{ height: virtual.getTotalSize() - ((rows.at(-1)?.end ?? listTop) - listTop) }}
                    />
                  ) : null}
                </tbody>
              </table>
            </div>
          ) : null}
          <p className="pager__status pager__status--sticky">
            {items.length && inView ? (
              <span data-testid="list-position">
                {`${(inView.startIndex + 1).toLocaleString()}–${(inView.endIndex + 1).toLocaleString()} of `}
                {filtered
                  ? `${items.length.toLocaleString()}${list.hasNextPage ? '+' : ''} matching`
                  : total.toLocaleString()}
                {' · '}
              </span>
            ) : null}
            <span aria-live="polite">
              {items.length.toLocaleString()} loaded
              {list.isFetchingNextPage ? ' · loading more…' : ''}
            </span>
            {search.cursor ? (
              <>
                {' · '}
                <Link to="/content/$collection" params={{ collection }} search={{ ...search, cursor: undefined }}>
                  Back to the first page
                </Link>
              </>
            ) : null}
          </p>
        </>
      )}
    </Page>
  );
}

/** A trashed entry's own actions: restore it as a draft, or (Admins) delete it for good. */
function TrashActions({
  title,
  canRestore,
  canDelete,
  busy,
  onRun,
}: {
  title: string;
  canRestore: boolean;
  canDelete: boolean;
  busy: boolean;
  onRun: (action: BulkAction) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons named for their row, not a form fieldset
    <div className="row-actions" role="group" aria-label={`Actions for ${title}`}>
      {canRestore ? (
        <Button size="small" disabled={busy} onClick={() => onRun('restore')}>
          Restore<span className="visually-hidden"> {title}</span>
        </Button>
      ) : null}
      {canDelete ? (
        <ConfirmButton
          label="Delete permanently"
          confirmLabel="Delete"
          question={`Delete “${title}” for good?`}
          busy={busy}
          onConfirm={() => onRun('permanent')}
        />
      ) : null}
    </div>
  );
}

function EmptyList({
  trash,
  filtered,
  noun,
  canCreate,
  onReset,
}: {
  trash: boolean;
  filtered: boolean;
  noun: string;
  canCreate: boolean;
  onReset: () => void;
}) {
  if (trash)
    return (
      <p className="empty">
        The trash is empty. Entries you move to the trash wait here until restored or deleted for good.
      </p>
    );
  if (filtered)
    return (
      <p className="empty">
        No entry matches these filters.{' '}
        <button type="button" className="linkish" onClick={onReset}>
          Clear the filters
        </button>
      </p>
    );
  return (
    <p className="empty">
      No {noun} yet.{' '}
      {canCreate
        ? 'Create the first one with the button above (or press N).'
        : 'Entries appear here once someone writes one.'}
    </p>
  );
}
