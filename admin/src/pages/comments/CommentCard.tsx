import type { Schemas } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatDateTime } from '../../lib/format';
import { unescapeHtml } from '../../lib/html';

type Comment = Schemas['AdminComment'];
type Action = Schemas['BulkCommentRequest']['action'];

const REASONS: Record<string, string> = {
  honeypot: 'filled the hidden field',
  too_many_links: 'many links',
  link_markup: 'link markup',
  link_in_name: 'link in the name',
  duplicate: 'duplicate',
};

/** One comment in the queue: who, where, what, and the moves that fit its status. */
export function CommentCard({
  comment: c,
  selected,
  onToggle,
  onAction,
  busy,
}: {
  comment: Comment;
  selected: boolean;
  onToggle: () => void;
  onAction: (action: Action) => void;
  busy: boolean;
}) {
  const author = unescapeHtml(c.authorName);
  const where = c.entry ? unescapeHtml(c.entry.title ?? c.entry.slug ?? c.contentId) : 'a deleted entry';
  const label = `Comment by ${author} on ${where}`;
  return (
    <li
      className={selected ? 'comment comment--selected' : 'comment'}
      data-comment-id={c.id}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focusable card is where the keyboard shortcuts act
      tabIndex={0}
      aria-label={label}
    >
      <label className="comment__pick">
        <input type="checkbox" checked={selected} onChange={onToggle} />
        <span className="visually-hidden">Select {label}</span>
      </label>
      <div className="comment__main">
        <p className="comment__head">
          <strong>{author}</strong>
          {c.authorEmail ? <span className="muted"> · {c.authorEmail}</span> : null}
          {c.authorUrl ? (
            <>
              {' · '}
              <a href={c.authorUrl} rel="nofollow noopener noreferrer" target="_blank">
                {new URL(c.authorUrl).host}
              </a>
            </>
          ) : null}
          <span className={`badge badge--${c.status}`}>{c.status}</span>
        </p>
        <p className="comment__meta">
          <span>
            On <em>{where}</em> <span className="muted">({c.collection})</span>
            {c.entry && c.entry.status !== 'published' ? <span className="badge">{c.entry.status}</span> : null}
          </span>
          <span>{formatDateTime(c.createdAt)}</span>
          {c.parentId ? <span>Reply</span> : null}
        </p>
        <p className="comment__body">{unescapeHtml(c.body)}</p>
        {c.spamReasons.length ? (
          <p className="comment__reasons small">
            Flagged as spam: {c.spamReasons.map((r) => REASONS[r] ?? r).join(', ')}
          </p>
        ) : null}
      </div>
      <div className="comment__actions">
        {c.status !== 'approved' ? (
          <Button size="small" variant="primary" busy={busy} onClick={() => onAction('approve')}>
            {c.status === 'spam' ? 'Not spam' : c.status === 'trash' ? 'Restore' : 'Approve'}
            <span className="visually-hidden"> comment by {author}</span>
          </Button>
        ) : null}
        {c.status !== 'spam' ? (
          <Button size="small" variant="ghost" onClick={() => onAction('spam')}>
            Spam<span className="visually-hidden"> comment by {author}</span>
          </Button>
        ) : null}
        {c.status !== 'trash' ? (
          <Button size="small" variant="ghost" onClick={() => onAction('trash')}>
            Trash<span className="visually-hidden"> comment by {author}</span>
          </Button>
        ) : null}
        <ConfirmButton
          label="Delete"
          question={c.parentId ? 'Delete this reply for good?' : 'Delete it and its replies for good?'}
          confirmLabel="Delete"
          onConfirm={() => onAction('delete')}
        />
      </div>
    </li>
  );
}
