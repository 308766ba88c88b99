import { activationBlocked, type StateOps } from './state.js';

/**
 * The write gate while media usage activation runs (spec: "During media usage
 * activation, writes through the service's own APIs are blocked
 * temporarily"; MCP rule 8). Every state-changing REST request and every MCP
 * tool not annotated `readOnlyHint: true` passes through `check()`, except
 * the writes listed here. The in-transaction check of the index listeners
 * stays: it is what keeps the index correct when another process switches
 * the state between this check and the write; the gate is the rule users see.
 *
 * Left open, and why:
 * - `/admin/media-usage/*` (activation, progress, work and collection-deletion
 *   retries, repair) and the `media_usage_repair` tool: the operator needs them
 *   to finish activation, and each answers for its own state (repair refuses
 *   with the same code by itself until activation is over).
 * - Signing in and out: passkey sign-in (options and verify), magic link send
 *   and consume, sign-out, and the consent steps of OAuth and device sign-in
 *   (approve and deny), so an operator, or the operator's CLI or MCP client,
 *   can get in to drive activation. The OAuth protocol endpoints (`/oauth/token`,
 *   `/oauth/device/code`, `/oauth/device/token`, `/oauth/register`,
 *   `/oauth/revoke`) are served ahead of the REST API and never reach the gate.
 * - Requests that use POST but store nothing: the import probe and the two
 *   import analyses (the file is analysed while it streams and not kept).
 * Everything else that writes is refused, including setup, sign-up, invites,
 * account passkeys, tokens, entry locks and search index rebuilds: none is
 * needed to finish activation, and one rule is easier to state than a list.
 */
export const OPEN_DURING_ACTIVATION: ReadonlyArray<RegExp> = [
  /^\/admin\/media-usage\//,
  /^\/auth\/passkey\/(options|verify)$/,
  /^\/auth\/oauth\/[^/]+\/start$/,
  /^\/auth\/magic-link\/(send|consume)$/,
  /^\/auth\/logout$/,
  /^\/oauth\/requests\/[^/]+\/(approve|deny)$/,
  /^\/oauth\/device\/verify\/[^/]+\/(approve|deny)$/,
  /^\/import\/probe$/,
  /^\/import\/blogplatform\/analyze$/,
  /^\/import\/blogplatform-plugin\/analyze$/,
];

/** Writing tools the operator needs during activation. */
export const OPEN_TOOLS: ReadonlySet<string> = new Set(['media_usage_repair']);

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a REST request (path relative to the API root) goes through the gate. */
export function routeGated(method: string, path: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase()) && !OPEN_DURING_ACTIVATION.some((re) => re.test(path));
}

/** Whether an MCP tool call goes through the gate. */
export function toolGated(tool: { name: string; annotations: { readOnlyHint?: boolean } }): boolean {
  return tool.annotations.readOnlyHint !== true && !OPEN_TOOLS.has(tool.name);
}

/**
 * Refuse with 503 `MEDIA_USAGE_ACTIVATION_IN_PROGRESS` while activation runs.
 * `active` is final and cached by the state: once this process has seen it
 * the check reads nothing. Before that it is one primary-key read.
 */
export function writeGate(state: StateOps) {
  return {
    async check(): Promise<void> {
      if (state.knownActive) return;
      if ((await state.read()).state === 'activating') throw activationBlocked();
    },
  };
}
