import type { Actor } from '../../auth/actor.js';
import { CmsError } from '../../core/errors.js';

/**
 * A minimal save-hook registry (the full plugin system builds on it). A hook
 * that throws or returns `{ reject }` stops the save with 422 SAVE_REJECTED.
 */
export interface BeforeSaveEvent {
  collection: string;
  operation: 'create' | 'update' | 'publish';
  entryId: string | null;
  locale: string;
  data: Record<string, unknown>;
  actor: Actor;
}

/** What a hook answers: nothing to let the save through, `{ reject }` to refuse it. */
export type HookVerdict = { reject: string } | undefined;

export type BeforeSaveHook = (event: BeforeSaveEvent) => HookVerdict | Promise<HookVerdict>;

export class ContentHooks {
  private readonly beforeSaveHooks: Array<{ name: string; fn: BeforeSaveHook }> = [];

  /** Register a hook; returns a function that removes it. */
  beforeSave(name: string, fn: BeforeSaveHook): () => void {
    const entry = { name, fn };
    this.beforeSaveHooks.push(entry);
    return () => {
      const i = this.beforeSaveHooks.indexOf(entry);
      if (i >= 0) this.beforeSaveHooks.splice(i, 1);
    };
  }

  async runBeforeSave(event: BeforeSaveEvent): Promise<void> {
    for (const { name, fn } of this.beforeSaveHooks) {
      let result: HookVerdict;
      try {
        result = await fn(event);
      } catch (err) {
        throw new CmsError('SAVE_REJECTED', (err as Error).message || `Rejected by ${name}`, { hook: name });
      }
      if (result && typeof result === 'object' && 'reject' in result) {
        throw new CmsError('SAVE_REJECTED', result.reject, { hook: name });
      }
    }
  }
}
