/**
 * The holds that pause writes site-wide (spec: "While an import is executing,
 * and after it fails or is cancelled until it is abandoned, most other write
 * operations return 503 TRANSFER_IMPORT_IN_PROGRESS"; "During media usage
 * activation, writes through the service's own APIs are blocked
 * temporarily"; MCP rule 8). The rule is stated here once: every operation
 * that writes, through any door (REST, MCP, the CLI's local target), meets
 * every hold, except the holds its declaration says it stays open during,
 * each with the reason. Reads never meet a hold. Everything else that writes
 * meets them all, including setup, sign-up, invites, account passkeys,
 * tokens, entry locks and search index rebuilds: none is needed to finish
 * an import or activation, and one rule is easier to state than a list.
 *
 * The doors only say which operation a call is; `checkHolds` refuses it.
 * The in-transaction checks of the services (the media usage index
 * listeners, the import's own state) stay: they keep data right when another
 * process changes a hold between this check and the write. This is the rule
 * users see.
 */
export type Hold = 'siteImport' | 'mediaUsageActivation';

/** The holds an operation that writes stays open during, each with why. */
export type OpenDuring = Readonly<Partial<Record<Hold, string>>>;

/** The holds in the order a write meets them (and the order their answers are documented in). */
const HOLDS: readonly Hold[] = ['siteImport', 'mediaUsageActivation'];

/** How each hold's refusal reads in the OpenAPI document of a write it pauses. */
export const HOLD_ANSWERS: Readonly<Record<Hold, string>> = {
  siteImport: 'Writes wait while a site import holds the site (TRANSFER_IMPORT_IN_PROGRESS)',
  mediaUsageActivation: 'Writes are paused while media usage activation runs (MEDIA_USAGE_ACTIVATION_IN_PROGRESS)',
};

/**
 * Signing in and out: passkey sign-in, a provider sign-in's start, magic
 * link send and consume, a recovery link an administrator sends (REST or
 * `cms users login-link`), sign-out, and the consent steps of OAuth and
 * device sign-in. The OAuth protocol endpoints (token, device code,
 * registration, revocation) are served ahead of the REST API and never meet
 * a hold. An operator (or the operator's CLI or MCP client) must be able to
 * get in to drive the import or the activation that holds the site.
 */
export const SIGN_IN: OpenDuring = {
  siteImport: 'an operator signs in to drive, cancel or abandon the import',
  mediaUsageActivation: 'an operator signs in to finish activation',
};

/** The site transfer's own operations: the operator drives, cancels and abandons the import through them. */
export const DRIVES_SITE_IMPORT: OpenDuring = {
  siteImport: 'the operator drives, cancels and abandons the import through the site transfer',
};

/**
 * The media usage operations (activation, progress, work and collection
 * deletion retries, repair): the operator needs them to finish activation,
 * and each answers for its own state (repair refuses with the same code by
 * itself until activation is over).
 */
export const DRIVES_ACTIVATION: OpenDuring = {
  mediaUsageActivation: 'the operator finishes activation through it; it answers for its own state',
};

/** POST requests that store nothing: the import probe and analyses read the file while it streams and keep nothing. */
export const STORES_NOTHING: OpenDuring = {
  mediaUsageActivation: 'stores nothing: the file is analysed while it streams and not kept',
};

/** The holds a write meets: every hold but those it stays open during. */
export function holdsMet(openDuring: OpenDuring = {}): Hold[] {
  return HOLDS.filter((hold) => openDuring[hold] === undefined);
}

/** What can tell whether each hold is on (the transfer and media usage services). */
export interface HoldChecks {
  transfer: { checkWritesOpen(): Promise<void> };
  mediaUsage: { checkWritesOpen(): Promise<void> };
}

/** Refuse a write with the 503 of the first hold it meets (`TRANSFER_IMPORT_IN_PROGRESS`, then `MEDIA_USAGE_ACTIVATION_IN_PROGRESS`). */
export async function checkHolds(services: HoldChecks, openDuring?: OpenDuring): Promise<void> {
  for (const hold of holdsMet(openDuring)) {
    if (hold === 'siteImport') await services.transfer.checkWritesOpen();
    else await services.mediaUsage.checkWritesOpen();
  }
}
