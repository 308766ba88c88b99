import { activationBlocked, type StateOps } from './state.js';

/**
 * The media usage activation hold (services/holds.ts states which writes
 * meet it and which stay open). The in-transaction check of the index
 * listeners stays: it is what keeps the index correct when another process
 * switches the state between this check and the write.
 *
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
