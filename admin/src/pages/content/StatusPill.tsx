import type { ContentItem } from '../../api/content';
import { formatInSiteZone } from '../../lib/timezone';

const LABEL: Record<string, string> = {
  draft: 'Draft',
  published: 'Published',
  scheduled: 'Scheduled',
  trashed: 'In trash',
};

/** Status with the facts that matter: a pending draft on a live entry, the scheduled time. */
export function StatusPill({ item }: { item: Pick<ContentItem, 'status' | 'hasDraft' | 'scheduledAt'> }) {
  return (
    <span className="pill-group">
      <span className={`pill pill--${item.status}`}>{LABEL[item.status] ?? item.status}</span>
      {item.status === 'published' && item.hasDraft ? <span className="pill pill--draft">Changes pending</span> : null}
      {item.status === 'scheduled' && item.scheduledAt ? (
        <span className="cell-sub">for {formatInSiteZone(item.scheduledAt)}</span>
      ) : null}
    </span>
  );
}
