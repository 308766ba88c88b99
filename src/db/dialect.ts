/**
 * The few places where SQLite and PostgreSQL differ. Everything else is the
 * same Kysely code on both.
 */
export type DialectName = 'sqlite' | 'postgres';

export type ColumnKind = 'text' | 'real' | 'integer' | 'boolean' | 'json';

/** SQL column type for each storage kind. Timestamps are ISO text on both dialects. */
export function columnType(dialect: DialectName, kind: ColumnKind): string {
  if (dialect === 'postgres') {
    return { text: 'text', real: 'double precision', integer: 'bigint', boolean: 'boolean', json: 'jsonb' }[kind];
  }
  return { text: 'text', real: 'real', integer: 'integer', boolean: 'integer', json: 'text' }[kind];
}

/** Encode a value for a column of the given kind. */
export function encodeValue(dialect: DialectName, kind: ColumnKind, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (kind === 'json') return JSON.stringify(value);
  if (kind === 'boolean') return dialect === 'sqlite' ? (value ? 1 : 0) : Boolean(value);
  return value;
}

/** Decode a column value read back from the database. */
export function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'json') return typeof value === 'string' ? safeJson(value) : value;
  if (kind === 'boolean') return value === true || value === 1 || value === '1';
  if (kind === 'integer' || kind === 'real') return typeof value === 'string' ? Number(value) : value;
  return value;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Identifiers (tables, columns) are validated, never interpolated raw. */
export const IDENTIFIER = /^[a-z][a-z0-9_]*$/;

export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name) || name.length > 63) throw new Error(`unsafe SQL identifier: ${name}`);
  return name;
}
