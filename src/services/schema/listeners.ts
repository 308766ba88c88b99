import type { Actor } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import type { SchemaSnapshot } from './model.js';

/**
 * What a schema write changed, told to listeners inside its transaction
 * (search indexes, media usage, anything derived from collections and
 * fields). Listeners compare `before` with `after` themselves, so one event
 * shape serves every kind of schema change; a listener that throws rolls the
 * whole change back.
 */
export interface SchemaChange {
  /** The schema as committed when the write began. */
  before: SchemaSnapshot;
  /** The schema as this transaction leaves it. */
  after: SchemaSnapshot;
  actor: Actor;
}

export type SchemaChangeListener = (trx: Kdb, change: SchemaChange) => Promise<void>;

export class SchemaHooks {
  private readonly listeners: Array<{ name: string; fn: SchemaChangeListener }> = [];

  /** Listen to every schema write, inside its transaction; returns a function that removes the listener. */
  afterChange(name: string, fn: SchemaChangeListener): () => void {
    const entry = { name, fn };
    this.listeners.push(entry);
    return () => {
      const i = this.listeners.indexOf(entry);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  get active(): boolean {
    return this.listeners.length > 0;
  }

  async run(trx: Kdb, change: SchemaChange): Promise<void> {
    for (const { fn } of this.listeners) await fn(trx, change);
  }
}
