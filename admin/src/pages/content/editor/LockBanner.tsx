import type { LockState } from '../../../api/content';
import { Button } from '../../../components/Button';
import { formatDateTime } from '../../../lib/format';

/** Someone else is editing: who, since when, until when; taking over is explicit. */
export function LockBanner({
  holder,
  onTakeOver,
}: {
  holder: NonNullable<LockState['holder']>;
  onTakeOver: () => void;
}) {
  return (
    <div className="alert alert--warn lock-banner" role="alert">
      <p>
        <strong>{holder.userName || 'Another user'}</strong> is editing this entry (since{' '}
        {formatDateTime(holder.acquiredAt)}; the lock lapses at {formatDateTime(holder.expiresAt)} unless they keep
        working). The form is read-only so neither of you loses work.
      </p>
      <Button size="small" variant="danger" onClick={onTakeOver}>
        Take over editing
      </Button>
    </div>
  );
}
