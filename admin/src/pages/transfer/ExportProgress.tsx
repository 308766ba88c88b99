import type { TransferExport } from '../../api/transfer';
import { formatBytes } from '../../lib/media';
import { formatCount, percent, quarterOf } from './words';

/** Whole percent of the records written (a site with nothing to write is done at once). */
export function percentOf(op: TransferExport): number {
  return op.state === 'complete' ? 100 : percent(op.progress.done, op.progress.total);
}

/** Records written of the records the site held when the export began, and the bytes so far. */
export function progressText(op: TransferExport): string {
  const { done, total, bytesDone } = op.progress;
  const finishing = op.state === 'running' && done >= total ? ' · writing the manifest' : '';
  return `${formatCount(done)} of ${formatCount(total)} records · ${formatBytes(bytesDone ?? 0)} written${finishing}`;
}

export function ExportProgress({ op, label }: { op: TransferExport; label: string }) {
  return (
    <div className="index__progress">
      <progress value={percentOf(op)} max={100} aria-label={label} />
      <span data-testid="export-progress">
        {percentOf(op)}% · {progressText(op)}
      </span>
    </div>
  );
}

/**
 * What a screen reader hears while an export runs: its start, every quarter,
 * and its end. The visible numbers change with every step; this text only at
 * those milestones, so the announcements stay few.
 */
export function announcement(op: TransferExport | null, starting: boolean): string {
  if (starting) return 'Starting the export…';
  if (!op) return '';
  if (op.state === 'complete') return 'Export complete. The archive can be downloaded.';
  if (op.state === 'failed') {
    return `Export failed${op.error ? `: ${op.error.code}, ${op.error.message}` : '.'}`;
  }
  const quarter = quarterOf(percentOf(op));
  return quarter === 0 ? 'Export running.' : `Export running: ${quarter}% of the records written.`;
}
