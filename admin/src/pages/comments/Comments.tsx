import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { Page, Section } from '../../components/Page';
import { CommentCard } from './CommentCard';

export type CommentStatus = Schemas['AdminComment']['status'];
type BulkAction = Schemas['BulkCommentRequest']['action'];

export interface CommentsSearch {
  status?: CommentStatus | 'all';
}

const TABS: Array<{ value: CommentStatus | 'all'; label: string; empty: string }> = [
  {
    value: 'pending',
    label: 'Pending',
    empty: 'Nothing waits for moderation. New comments from visitors land here before anyone sees them.',
  },
  { value: 'approved', label: 'Approved', empty: 'No approved comments yet: approve a pending one to publish it.' },
  {
    value: 'spam',
    label: 'Spam',
    empty: 'No spam. Submissions that fill the hidden honeypot field or look like link spam land here.',
  },
  { value: 'trash', label: 'Trash', empty: 'The trash is empty.' },
  {
    value: 'all',
    label: 'All',
    empty: 'No comments yet. Visitors comment on published entries of collections that allow it.',
  },
];

const PAGE_SIZE = 25;
const ACTION_DONE: Record<BulkAction, string> = {
  approve: 'approved',
  spam: 'marked as spam',
  trash: 'moved to the trash',
  delete: 'deleted for good',
};

/**
 * Moderation queue: status tabs with counts, cursor pages, a selection with
 * bulk actions, and keyboard shortcuts on the focused comment
 * (j/k move, x select, a approve, s spam, t trash).
 */
export function CommentsPage({ search }: { search: CommentsSearch }) {
  const status = search.status ?? 'pending';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const listRef = useRef<HTMLUListElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new tab starts at its first page with nothing selected
  useEffect(() => {
    setCursors([]);
    setSelected(new Set());
  }, [status]);

  const counts = useQuery({
    queryKey: ['comment-counts'],
    queryFn: () => unwrap(api.GET('/admin/comments/counts')),
  });
  const list = useQuery({
    queryKey: ['comments', { status, cursor }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/comments', {
          params: { query: { status: status === 'all' ? undefined : status, cursor, limit: PAGE_SIZE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const items = list.data?.items ?? [];
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: ['comments'] });
    queryClient.invalidateQueries({ queryKey: ['comment-counts'] });
  };

  const bulk = useMutation({
    mutationFn: (v: { action: BulkAction; ids: string[] }) => unwrap(api.POST('/admin/comments/bulk', { body: v })),
    onSuccess: (r) => {
      setError(null);
      const failed = r.results.filter((x) => !x.ok).length;
      const n = r.results.length - failed;
      setNotice(
        `${n} comment${n === 1 ? '' : 's'} ${ACTION_DONE[r.action]}.${failed ? ` ${failed} no longer existed.` : ''}`,
      );
      setSelected(new Set());
    },
    onError: (e) => {
      setNotice(null);
      setError(e);
    },
    onSettled: refresh,
  });
  const act = (action: BulkAction, ids: string[]) => bulk.mutate({ action, ids });

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allSelected = items.length > 0 && items.every((c) => selected.has(c.id));
  const chosen = [...selected];

  /** Shortcuts on the focused card; never while typing in a field. */
  function onKeyDown(e: React.KeyboardEvent<HTMLUListElement>) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    if (target.closest('input, textarea, select') && e.key !== 'x') return;
    const card = target.closest<HTMLElement>('[data-comment-id]');
    if (!card) return;
    const id = card.dataset.commentId as string;
    const cards = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-comment-id]') ?? [])];
    const at = cards.indexOf(card);
    const keys: Record<string, () => void> = {
      j: () => cards[Math.min(at + 1, cards.length - 1)]?.focus(),
      k: () => cards[Math.max(at - 1, 0)]?.focus(),
      x: () => toggle(id),
      a: () => act('approve', [id]),
      s: () => act('spam', [id]),
      t: () => act('trash', [id]),
    };
    const run = keys[e.key];
    if (run) {
      e.preventDefault();
      run();
    }
  }

  const tab = TABS.find((t) => t.value === status) ?? TABS[0];
  return (
    <Page
      title="Comments"
      description="Comments from visitors wait here until an editor approves them; only approved comments are public."
    >
      <nav className="tabs" aria-label="Comment status">
        {TABS.map((t) => {
          const n = counts.data ? (t.value === 'all' ? counts.data.total : counts.data[t.value]) : undefined;
          return (
            <Link
              key={t.value}
              to="/comments"
              search={{ status: t.value }}
              className={t.value === status ? 'tab tab--active' : 'tab'}
              aria-current={t.value === status ? 'page' : undefined}
            >
              {t.label}
              {n !== undefined ? <span className="tab__count">{n}</span> : null}
            </Link>
          );
        })}
      </nav>
      <Section id="queue" title={`${tab.label} comments`}>
        <div className="bulkbar" role="toolbar" aria-label="Selected comments">
          <label className="check check--inline">
            <input
              type="checkbox"
              checked={allSelected}
              disabled={!items.length}
              onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((c) => c.id)))}
            />
            <span>Select all on this page</span>
          </label>
          <span className="bulkbar__count" aria-live="polite">
            {chosen.length ? `${chosen.length} selected` : 'None selected'}
          </span>
          <Button size="small" disabled={!chosen.length} busy={bulk.isPending} onClick={() => act('approve', chosen)}>
            Approve
          </Button>
          <Button size="small" disabled={!chosen.length} onClick={() => act('spam', chosen)}>
            Spam
          </Button>
          <Button size="small" disabled={!chosen.length} onClick={() => act('trash', chosen)}>
            Trash
          </Button>
          {chosen.length ? (
            <ConfirmButton
              label="Delete for good"
              question={`Delete ${chosen.length} comment${chosen.length === 1 ? '' : 's'} and their replies?`}
              confirmLabel="Delete"
              onConfirm={() => act('delete', chosen)}
            />
          ) : null}
        </div>
        <p className="small muted kbd-hint">
          Keyboard: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>x</kbd> select, <kbd>a</kbd> approve, <kbd>s</kbd>{' '}
          spam, <kbd>t</kbd> trash.
        </p>
        <ErrorMessage error={error} />
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {list.isPending ? <Spinner label="Loading comments…" /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? <p className="empty">{tab.empty}</p> : null}
        {items.length ? (
          <ul className="comments" ref={listRef} onKeyDown={onKeyDown} aria-label={`${tab.label} comments`}>
            {items.map((c) => (
              <CommentCard
                key={c.id}
                comment={c}
                selected={selected.has(c.id)}
                onToggle={() => toggle(c.id)}
                onAction={(action) => act(action, [c.id])}
                busy={bulk.isPending}
              />
            ))}
          </ul>
        ) : null}
        <nav className="pager" aria-label="Pages of comments">
          <Button size="small" disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous
          </Button>
          <span className="pager__status" aria-live="polite">
            Page {cursors.length + 1}
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
        {status !== 'pending' && counts.data?.pending ? (
          <p className="small">
            <Button
              size="small"
              variant="ghost"
              onClick={() => navigate({ to: '/comments', search: { status: 'pending' } })}
            >
              {counts.data.pending} waiting for moderation →
            </Button>
          </p>
        ) : null}
      </Section>
    </Page>
  );
}
