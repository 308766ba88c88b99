import type { CheckFinding, CheckId, CheckReport, CheckSummary } from '../../api/siteCheck';

/** What each check looks at, for the picker (the report names them with the service's titles). */
export const CHECK_TEXT: Record<CheckId, { label: string; hint: string }> = {
  revisions: { label: 'Revisions', hint: 'Draft and live pointers of every entry, and the stored versions' },
  orphans: { label: 'Orphaned rows', hint: 'Rows left by deleted entries, collections, terms or bylines' },
  'term-counts': { label: 'Term counts', hint: 'How many published entries carry each term' },
  search: { label: 'Search index', hint: 'The search index against the searchable content' },
  'media-usage': { label: 'Media usage', hint: 'Which entries and settings use each media item' },
  storage: { label: 'Stored files', hint: 'Media rows against the files in storage' },
};

/** The overall result in words: whether it came from a check or from a repair. */
export function reportText(report: CheckReport): string {
  const problems = report.checks.reduce((n, c) => n + c.problems, 0);
  const repaired = report.checks.reduce((n, c) => n + c.repaired, 0);
  if (report.status === 'ok') return 'Nothing is wrong: every check passed.';
  if (report.status === 'repaired')
    return `${plural(repaired, 'problem')} found, all repaired. Run the check again to confirm.`;
  if (report.repair)
    return `${plural(problems, 'problem')} found, ${repaired.toLocaleString()} repaired. What remains cannot be derived from the content.`;
  return `${plural(problems, 'problem')} found. See each check below.`;
}

export const STATUS_LABEL: Record<CheckSummary['status'] | CheckReport['status'], string> = {
  ok: 'OK',
  problems: 'Problems',
  skipped: 'Skipped',
  repaired: 'Repaired',
};

/** The counts of one check: problems, repaired, and how many findings the report lists in full. */
export function countsText(c: CheckSummary): string {
  if (c.status === 'skipped') return 'Did not apply.';
  if (!c.problems) return 'No problems.';
  const parts = [plural(c.problems, 'problem')];
  if (c.repaired) parts.push(`${c.repaired.toLocaleString()} repaired`);
  if (c.findings.length < c.problems) parts.push(`the first ${c.findings.length.toLocaleString()} listed`);
  return `${parts.join(', ')}.`;
}

export function repairText(f: CheckFinding): string {
  if (f.repaired) return 'Repaired';
  return f.repairable ? 'Repairable' : 'Not repairable';
}

export const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
