/** Plain words for the states the media usage API reports (docs/media.md, "Usage"). */

export const STATE_TEXT: Record<string, string> = {
  expanded:
    'Usage tracking is off. This site was upgraded from a version without it: media items show no entry counts until it is activated.',
  activating:
    'Activation is in progress. Content and schema writes answer “activation in progress” (503) until every collection is prepared.',
  active: 'Usage tracking is on: every content write keeps the index up to date.',
};

export const COVERAGE_TEXT: Record<string, string> = {
  complete: 'Complete: every collection is indexed, so a media item with no uses really is unused.',
  never: 'None yet: tracking is off, so only site settings are counted.',
  running: 'Indexing is in progress: counts may be too low until it finishes.',
  partial: 'Partial: some entries could not be read (see the skipped counts). A repair may fix them.',
  failed: 'Failed: an indexing step failed (see the error code and the work items below).',
  stale: 'Stale: a field’s media shape changed since indexing. Run a repair.',
  unknown: 'Unknown: the index is in a state this version does not recognise.',
};

export const COLLECTION_STATUS_TEXT: Record<string, string> = {
  pending: 'waiting',
  running: 'indexing',
  complete: 'complete',
  partial: 'partial (entries skipped)',
  failed: 'failed',
  stale: 'stale (schema changed)',
};

export const WORK_STATUS_TEXT: Record<string, string> = {
  pending: 'waiting',
  running: 'running',
  done: 'done',
  failed: 'failed',
};

/** Collections whose indexing has ended one way or another, for the progress bar. */
export const FINISHED = new Set(['complete', 'partial', 'failed', 'stale']);
