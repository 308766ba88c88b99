/**
 * Pieces the Export, Import and Approvals tabs of Site transfer share: the
 * paged lists of operations and their rows, facts, badges and the words
 * about an operation the server also finishes on its own.
 */
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { formatCount, kindText } from './words';

type CursorPage<T> = { items: T[]; nextCursor: string | null };

/**
 * A list the service gives a page at a time (cursor pagination), newest
 * first. `refetchInterval` looks at every item loaded so far: how often to
 * refresh the list (false: not on a timer).
 */
export function useCursorPages<T>(
  queryKey: QueryKey,
  list: (cursor?: string) => Promise<CursorPage<T>>,
  { refetchInterval, ...rest }: { refetchInterval: (loaded: T[]) => number | false; refetchOnWindowFocus?: boolean },
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => list(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    ...rest,
    refetchInterval: (q) => refetchInterval(q.state.data?.pages.flatMap((p) => p.items) ?? []),
  });
}

/** What a paged list shows of its query. */
interface Pages<T> {
  data?: { pages: Array<{ items: T[] }> };
  isPending: boolean;
  isSuccess: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** Every item of the pages loaded so far. */
export const loadedItems = <T,>(pages: Pages<T>): T[] => pages.data?.pages.flatMap((p) => p.items) ?? [];

/** A list of operations as it loads: a spinner at first, the error, the empty text, the rows, "Load more". */
export function PagedList<T>({
  pages,
  label,
  empty,
  row,
}: {
  pages: Pages<T>;
  /** The list's accessible name. */
  label: string;
  empty: string;
  row: (item: T) => ReactNode;
}) {
  const items = loadedItems(pages);
  return (
    <>
      {pages.isPending ? <Spinner /> : null}
      <ErrorMessage error={pages.error} />
      {pages.isSuccess && !items.length ? <p className="empty">{empty}</p> : null}
      {items.length ? (
        <ul className="transfer-list" aria-label={label}>
          {items.map((item) => row(item))}
        </ul>
      ) : null}
      {pages.hasNextPage ? (
        <div className="actions transfer-more">
          <Button onClick={() => pages.fetchNextPage()} busy={pages.isFetchingNextPage} busyLabel="Loading…">
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** The head of an operation: its title (the target of aria-labelledby) and its badges. */
export function ItemHead({
  titleId,
  title,
  focusable = false,
  children,
}: {
  titleId: string;
  title: ReactNode;
  /** The title takes the focus when the operation is shown (tabIndex -1). */
  focusable?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="transfer-item__head">
      <h3 className="transfer-item__title" id={titleId} tabIndex={focusable ? -1 : undefined}>
        {title}
      </h3>
      {children}
    </div>
  );
}

/** One row of a list of operations (`data-testid` and `data-state` for the tests), named by its title. */
export function ItemRow({
  id,
  testId,
  state,
  title,
  badges,
  children,
}: {
  /** The element ID of the title. */
  id: string;
  testId: string;
  state: string;
  title: ReactNode;
  badges: ReactNode;
  children: ReactNode;
}) {
  return (
    <li className="transfer-item" aria-labelledby={id} data-testid={testId} data-state={state}>
      <ItemHead titleId={id} title={title}>
        {badges}
      </ItemHead>
      {children}
    </li>
  );
}

type StateWords = { label: string; tone: string };

/** A state as a pill in its tone; a state without words shows as it is. */
export function StateBadge({ state, words }: { state: string; words: Readonly<Record<string, StateWords>> }) {
  const s = words[state] ?? { label: state, tone: 'plain' };
  return <span className={`pill pill--${s.tone}`}>{s.label}</span>;
}

/** `ID <code>…</code>`, in a row's meta line. */
export function OperationId({ id }: { id: string }) {
  return (
    <span>
      ID <code className="code">{id}</code>
    </span>
  );
}

/** After "The export failed" (or "was cancelled"): " with CODE: message", or the full stop when there is no error. */
export function EndedWith({ error }: { error: { code: string; message: string } | null | undefined }) {
  return error ? (
    <>
      {' '}
      with <code className="code">{error.code}</code>: {error.message}
    </>
  ) : (
    '.'
  );
}

/** One fact of a `transfer-facts` list. */
export function Fact({
  term,
  className,
  testId,
  children,
}: {
  term: ReactNode;
  className?: string;
  /** On the value (`dd`). */
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** Counts by record kind, folded away; nothing when every count is 0. */
export function ByKind({ counts, label = 'Records by kind' }: { counts: Record<string, number>; label?: string }) {
  const kinds = Object.entries(counts).filter(([, n]) => n > 0);
  if (!kinds.length) return null;
  return (
    <details className="transfer-kinds">
      <summary>{label}</summary>
      <dl>
        {kinds.map(([kind, n]) => (
          <div key={kind}>
            <dt>{kindText(kind)}</dt>
            <dd>{formatCount(n)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** A reported item's code, and the record kind it is about when it names one. */
export function IssueCode({ code, kind }: { code: string; kind?: string | null }) {
  return (
    <>
      <code className="code">{code}</code>
      {kind ? <span className="muted"> · {kindText(kind)}</span> : null}
    </>
  );
}

/** While an operation runs and this page is not driving it: "Continue", and that the server gets there too. */
export function ContinueInBackground({
  disabled,
  onContinue,
  children,
}: {
  disabled: boolean;
  onContinue: () => void;
  /** After "Continue" (words for a screen reader, say). */
  children?: ReactNode;
}) {
  return (
    <div className="actions">
      <Button size="small" variant="primary" disabled={disabled} onClick={onContinue}>
        Continue{children}
      </Button>
      <span className="small muted">The server also finishes it in the background, a little more slowly.</span>
    </div>
  );
}

/** While this page drives an operation: it may be left. */
export function MayLeave({ what }: { what: 'export' | 'import' }) {
  return (
    <p className="small muted">{`You may leave this page: the server finishes the ${what} on its own, and it stays listed below.`}</p>
  );
}
