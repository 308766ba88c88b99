import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ComponentProps, useEffect, useState } from 'react';
import type { Me } from '../../api/auth';
import { decideApproval, listApprovals, type TransferApproval, transferKeys } from '../../api/transfer';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { Fact, ItemRow, PagedList, StateBadge, useCursorPages } from './TransferParts';
import { ACTION_TEXT, APPROVAL_STATE, relativeTime } from './words';

/** Requests that may still change on their own (used, expired) or need a decision. */
const open = (a: TransferApproval) => a.state === 'pending' || a.state === 'approved';

/**
 * The approval requests, newest first. Refreshed every 5 seconds while one is
 * open, every 30 otherwise, and whenever the window regains focus (an agent
 * asks, the administrator switches to the admin).
 */
export function useApprovals() {
  return useCursorPages(transferKeys.approvals, listApprovals, {
    refetchOnWindowFocus: true,
    refetchInterval: (loaded) => (loaded.some(open) ? 5_000 : 30_000),
  });
}

/** The time now, again every `ms` (relative times such as "in 12 minutes" move on). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** The list; opening it asks for a fresh copy (the page's own copy only counts the pending requests). */
export function ApprovalsPanel({ me }: { me: Me }) {
  const approvals = useApprovals();
  const now = useNow(15_000);
  return (
    <Section
      id="transfer-approvals"
      title="Approval requests"
      description={
        <>
          An AI tool or script connected over MCP whose token lacks the transfer scope cannot export the site on its
          own: it asks here. Each request is bound to one user, one token and the exact arguments; a pending request
          expires after 15 minutes, and so does an approval that is not used.
        </>
      }
    >
      <div className="actions transfer-toolbar">
        <Button
          size="small"
          variant="ghost"
          onClick={() => approvals.refetch()}
          busy={approvals.isRefetching && !approvals.isFetchingNextPage}
          busyLabel="Refreshing…"
        >
          Refresh
        </Button>
        <span className="small muted">Updates on its own while requests are open.</span>
      </div>
      <PagedList
        pages={approvals}
        label="Approval requests"
        empty="No requests yet."
        row={(item) => <ApprovalRow key={item.id} item={item} me={me} now={now} />}
      />
    </Section>
  );
}

/** The bound arguments in words, beside their exact JSON. */
function argumentsText(item: TransferApproval): string | null {
  const comments = item.arguments.comments;
  if (item.action === 'export' && typeof comments === 'boolean') {
    return comments ? 'comments included' : 'comments left out';
  }
  return null;
}

function ApprovalRow({ item, me, now }: { item: TransferApproval; me: Me; now: number }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'deny') => decideApproval(item.id, decision),
    onSettled: () => queryClient.invalidateQueries({ queryKey: transferKeys.approvals }),
  });
  const state = APPROVAL_STATE[item.state];
  const action = ACTION_TEXT[item.action] ?? { title: item.action, verb: item.action };
  const user = item.user.name ?? 'a user without a name';
  const token = item.tokenName ? `“${item.tokenName}”` : 'a token that no longer exists';
  const consentId = `approval-${item.id}-consent`;
  const words = argumentsText(item);
  const decidedBy = item.decidedBy === me.user.id ? 'by you' : item.decidedBy ? 'by another administrator' : '';
  const decideButton = (
    decision: 'approve' | 'deny',
    label: string,
    busyLabel: string,
    props: ComponentProps<typeof Button> = {},
  ) => (
    <Button
      size="small"
      busy={decide.isPending && decide.variables === decision}
      busyLabel={busyLabel}
      disabled={decide.isPending}
      onClick={() => decide.mutate(decision)}
      {...props}
    >
      {label}
    </Button>
  );

  return (
    <ItemRow
      id={`approval-${item.id}-title`}
      testId="approval-row"
      state={item.state}
      title={
        <>
          {action.title}
          <span className="visually-hidden">, asked by {user}</span>
        </>
      }
      badges={<StateBadge state={item.state} words={APPROVAL_STATE} />}
    >
      <p>
        Asked by <strong>{user}</strong> with the token <strong>{token}</strong>.{' '}
        <span className="muted">{state.text}</span>
      </p>
      <dl className="transfer-facts">
        <Fact term="Arguments">
          <code className="code">{JSON.stringify(item.arguments)}</code>
          {words ? <span className="muted"> ({words})</span> : null}
        </Fact>
        <Fact term="Asked">{formatDateTime(item.createdAt)}</Fact>
        {item.decidedAt ? (
          <Fact term={item.state === 'denied' ? 'Denied' : 'Approved'}>
            {formatDateTime(item.decidedAt)} {decidedBy}
          </Fact>
        ) : null}
        {item.usedAt ? <Fact term="Used">{formatDateTime(item.usedAt)}</Fact> : null}
        {item.state === 'used' || item.state === 'denied' ? null : (
          <Fact term={item.state === 'expired' ? 'Expired' : 'Expires'}>
            {formatDateTime(item.expiresAt)}
            {open(item) ? <span className="muted"> ({relativeTime(item.expiresAt, now)})</span> : null}
          </Fact>
        )}
      </dl>
      {item.operationId ? (
        <p className="small">
          Started {item.action === 'export' ? 'export' : 'operation'} <code className="code">{item.operationId}</code>
          {item.action === 'export' ? (
            <>
              {' '}
              (listed under <Link to="/transfer">Export</Link>)
            </>
          ) : null}
          .
        </p>
      ) : null}
      {item.state === 'pending' ? (
        <>
          <p className="transfer-consent" id={consentId}>
            Approving lets {token} of <strong>{user}</strong> {action.verb} once, within 15 minutes
            {item.action === 'export'
              ? ': every entry, user account (names and e-mail addresses), setting and media file'
              : ''}
            {words ? `, ${words}` : ''}.
          </p>
          <div className="actions">
            {decideButton('approve', 'Approve', 'Approving…', { variant: 'primary', 'aria-describedby': consentId })}
            {decideButton('deny', 'Deny', 'Denying…')}
          </div>
        </>
      ) : null}
      {decide.isSuccess && decide.data.state === item.state ? (
        <Notice tone="success">
          {decide.data.state === 'approved'
            ? `Approved. ${token} may now ${action.verb} once, until ${formatDateTime(decide.data.expiresAt)}.`
            : `Denied. ${token} cannot use this request.`}
        </Notice>
      ) : null}
      <ErrorMessage error={decide.error} />
    </ItemRow>
  );
}
