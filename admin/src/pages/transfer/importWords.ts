/** Plain words for what the import side of site transfer reports (docs/transfer.md, "Import"). */
import type { ImportState, TransferImport } from '../../api/transferImport';
import { kindText, plural } from './words';

export const IMPORT_STATE: Record<ImportState, { label: string; tone: string }> = {
  uploading: { label: 'Uploading', tone: 'draft' },
  analyzing: { label: 'Analyzing', tone: 'draft' },
  planned: { label: 'Planned', tone: 'scheduled' },
  executing: { label: 'Importing', tone: 'warn' },
  complete: { label: 'Complete', tone: 'published' },
  failed: { label: 'Failed', tone: 'trashed' },
  cancelled: { label: 'Cancelled', tone: 'trashed' },
  abandoned: { label: 'Abandoned', tone: 'plain' },
};

/** The steps an import goes through, as the page shows them. */
export const IMPORT_STEPS = [
  { key: 'upload', label: 'Upload' },
  { key: 'analyze', label: 'Analyze' },
  { key: 'review', label: 'Review the plan' },
  { key: 'import', label: 'Import' },
  { key: 'done', label: 'Receipt' },
] as const;

export type ImportStep = (typeof IMPORT_STEPS)[number]['key'];

/** The step an import is at; one that stopped (failed, cancelled, abandoned) is at the step it stopped in. */
export function stepOf(op: TransferImport): ImportStep {
  switch (op.state) {
    case 'uploading':
      return 'upload';
    case 'analyzing':
      return 'analyze';
    case 'planned':
      return 'review';
    case 'executing':
      return 'import';
    case 'complete':
      return 'done';
    default:
      // Stopped: it began executing if it holds the site or counted records written; it was analysed if it has a plan.
      if (op.holdsSite || op.progress.records !== undefined) return 'import';
      if (op.plan) return 'review';
      return op.files.missing > 0 ? 'upload' : 'analyze';
  }
}

/** Stages of an executing import (`stage`). */
export const EXECUTE_STAGE: Record<string, string> = {
  records: 'Writing records',
  derived: 'Building search indexes, term counts and the media usage index',
};

/** What to do about a blocker, by its code; the service's message says what it is. */
export const BLOCKER_ADVICE: Record<string, string> = {
  files_missing: 'Pick the archive again to upload the files still missing, then the plan is made again.',
  site_not_empty:
    'Import into a new, empty installation (its first administrator, settings and allowed domains may stay), or remove that content from this site and check the plan again.',
  import_in_progress: 'Finish that import, or abandon it (listed below), then check the plan again.',
  newer_release: 'Update this site to the release that wrote the package, or a later one, then analyze it again.',
  principal_conflict: 'Choose “Attribute to” that user of this site below instead of creating the user.',
  records_mismatch: 'The package is damaged or was changed after it was exported: export it again on the source site.',
  invalid_record:
    'The package holds a record this site refuses (the message names its file, line and why): a damaged or changed package, or a value the rules refuse. Correct it on the source site and export again.',
};

/** Codes of the plan's transformations, in words ("3 package users attributed to users of this site"). */
export function transformationText(code: string, count: number, kind?: string): string {
  switch (code) {
    case 'principals_mapped':
      return `${plural(count, 'package user')} attributed to users of this site`;
    case 'principals_created':
      return `${plural(count, 'user')} created from the package (they sign in by magic link or passkey)`;
    case 'user_references_remapped':
      return `${plural(count, 'record')} re-attributed to the users of this site chosen for them`;
    case 'domains_kept':
      return `${plural(count, 'allowed domain')} this site already has kept as they are`;
    case 'title_kept':
      return 'This site’s title kept';
    case 'tagline_kept':
      return 'This site’s tagline kept';
    case 'columns_dropped':
      return `${plural(count, 'column')} this release does not have left out`;
    case 'search_indexes_built':
      return `Search indexes built for ${plural(count, 'collection')}`;
    case 'term_counts_computed':
      return `Term counts computed from ${plural(count, 'term assignment')}`;
    case 'media_usage_indexed':
      return `Media usage indexed for ${plural(count, 'entry', 'entries')}`;
    case 'comment_text_normalised':
      return `${plural(count, 'comment')} stored the way the comment rules store text (markup escaped, links that are not http(s) dropped)`;
    case 'redirect_normalised':
      return `${plural(count, 'redirect')} with the source written in its canonical form`;
    case 'media_filename_cleaned':
      return `${plural(count, 'media file name')} cleaned of control characters and paths`;
    default:
      return `${code}${kind ? ` (${kindText(kind)})` : ''}: ${count}`;
  }
}

/** What the site's users do next after an import, in the receipt. */
export const NEXT_STEPS = {
  signIn:
    'Imported users sign in on this site by magic link or passkey: passwords, passkeys, sessions and tokens never travel in a package. Tell them the new address.',
  tokens: 'Create new access tokens for integrations and AI tools: those of the old site do not work here.',
  settings: 'Review the settings — the site’s address, title, time zone and the allowed sign-up domains.',
  content: 'Look through the content and media, and the search results: indexes were rebuilt from the package.',
};
