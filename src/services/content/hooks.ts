import type { Expression, SqlBool } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { CmsError, issuesError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { FieldDefinition } from '../fields/types.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';

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

/**
 * What changed in an entry table, told to listeners inside the writing
 * transaction (search index, media usage, term assignments …). Listeners read
 * the rows' new state through `trx` themselves, so one event shape serves them
 * all; a listener that throws rolls the whole write back.
 */
export type EntryChangeKind =
  | 'create'
  | 'update'
  | 'publish'
  | 'unpublish'
  | 'schedule'
  | 'unschedule'
  | 'discard-draft'
  | 'trash'
  | 'restore'
  | 'delete'
  | 'duplicate'
  | 'restore-revision'
  /** Shared (non-translatable) values copied from a sibling of the group. */
  | 'sync';

export interface EntryChange {
  kind: EntryChangeKind;
  collection: CollectionInfo;
  /** Entries whose rows changed; for `delete` the rows are already gone. */
  ids: string[];
  /** Translation group of those entries. */
  group: string;
  /** `create` of a translation: the source entry. */
  translationOf?: string;
  /** `duplicate`: the entry copied. */
  duplicateOf?: string;
  /**
   * `update`: each entry's data (its pending draft's when it has one) as it
   * was before this write, by entry ID, so listeners can tell changed values
   * from values the write left alone.
   */
  previous?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * `create` and `update`: the terms sent with the write (taxonomy → term IDs or slugs), which
   * the taxonomy domain's listener applies in this transaction. Passed with the write's input,
   * never through ambient state.
   */
  terms?: Readonly<Record<string, readonly string[]>>;
  actor: Actor;
  now: string;
}

export type EntryChangeListener = (trx: Kdb, change: EntryChange) => Promise<void>;

/**
 * The content list's `term` filter, provided by the taxonomy domain: a
 * condition on the entry table's translation-group column.
 */
export type TermFilter = (
  collection: CollectionInfo,
  locale: string,
  term: string,
  groupColumn: string,
) => Promise<Expression<SqlBool>>;

/**
 * What another domain adds to entry values as reads return them (the media domain's image
 * `srcset`): made from the values alone, no query (the published-read budget), and returning
 * `data` itself when it adds nothing. Never stored.
 */
export type ValuePresenter = (
  fields: readonly FieldDefinition[],
  data: Record<string, unknown>,
  snap: SchemaSnapshot,
) => Record<string, unknown>;

export class ContentHooks {
  private readonly beforeSaveHooks: Array<{ name: string; fn: BeforeSaveHook }> = [];
  private readonly valuePresenters: ValuePresenter[] = [];
  private readonly changeListeners: Array<{ name: string; fn: EntryChangeListener }> = [];
  private termFilterFn: TermFilter | undefined;

  /** Add a presenter of entry values on reads. */
  presentValues(fn: ValuePresenter): void {
    this.valuePresenters.push(fn);
  }

  get presentsValues(): boolean {
    return this.valuePresenters.length > 0;
  }

  /** `data` as reads show it (the same object when no presenter adds anything). */
  presented(fields: readonly FieldDefinition[], data: Record<string, unknown>, snap: SchemaSnapshot) {
    return this.valuePresenters.reduce((d, fn) => fn(fields, d, snap), data);
  }

  /** Set the provider of the list's `term` filter (the taxonomy domain). */
  provideTermFilter(fn: TermFilter): void {
    this.termFilterFn = fn;
  }

  /** The condition for `term=<taxonomy>:<slug>` on a list of `collection` in `locale`. */
  termFilter(
    collection: CollectionInfo,
    locale: string,
    term: string,
    groupColumn: string,
  ): Promise<Expression<SqlBool>> {
    if (!this.termFilterFn) {
      throw issuesError('Term filters are not available', [
        { path: ['term'], code: 'unavailable', message: 'no taxonomies' },
      ]);
    }
    return this.termFilterFn(collection, locale, term, groupColumn);
  }

  /** Listen to every entry write, inside its transaction; returns a function that removes the listener. */
  afterWrite(name: string, fn: EntryChangeListener): () => void {
    const entry = { name, fn };
    this.changeListeners.push(entry);
    return () => {
      const i = this.changeListeners.indexOf(entry);
      if (i >= 0) this.changeListeners.splice(i, 1);
    };
  }

  async runAfterWrite(trx: Kdb, change: EntryChange): Promise<void> {
    if (!change.ids.length) return;
    for (const { fn } of this.changeListeners) await fn(trx, change);
  }

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
