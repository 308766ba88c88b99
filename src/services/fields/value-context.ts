import type { IssueSink } from './issue.js';
import type { FieldDefinition } from './types.js';

/** How value validation reaches block type definitions without depending on the database. */
export interface BlockTypeVersionLookup {
  /** Field definitions of `slug` at `version`, or undefined when that block type/version does not exist. */
  fields(slug: string, version: number): FieldDefinition[] | undefined;
  /** The version new blocks get when they omit `_version`; undefined when the block type does not exist. */
  activeVersion(slug: string): number | undefined;
}

export interface ValidateOptions {
  /**
   * create: every field is considered; missing fields take their defaultValue and required
   * fields must be present. update: partial; only keys present in data are checked, and
   * `required` rejects a present key that is null or empty.
   */
  mode: 'create' | 'update';
  /** Needed to validate blocks fields; without it every block is rejected. */
  blockTypes?: BlockTypeVersionLookup;
  /** The entry's current data (update), so blocks of a retired type that already exist can be kept. */
  previous?: Record<string, unknown>;
  /** Seeds and plugin content updates keep scheme-less URLs such as `about/` (spec 2, url rule 3). */
  allowSchemelessUrls?: boolean;
}

/** Carried through one validation run. */
export interface ValueContext {
  sink: IssueSink;
  options: ValidateOptions;
}
