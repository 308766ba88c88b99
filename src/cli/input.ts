import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { UsageError } from './errors.js';
import type { Io } from './io.js';

/** Parse JSON, or YAML for .yaml/.yml files (the yaml package is loaded only then). */
export async function parseDocument(text: string, name: string): Promise<unknown> {
  const ext = extname(name).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    const { parse } = await import('yaml');
    try {
      return parse(text, { maxAliasCount: 100 });
    } catch (err) {
      throw new UsageError(`${name} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
}

export function readText(io: Io, file: string): string {
  try {
    return readFileSync(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `No such file: ${file}` : `Cannot read ${file}: ${(err as Error).message}`,
    );
  }
}

export async function readDocumentFile(io: Io, file: string): Promise<unknown> {
  return parseDocument(readText(io, file), file);
}

export interface DataOptions {
  data?: string;
  file?: string;
  stdin?: boolean;
}

/**
 * Field values from exactly one of --data (JSON), --file (JSON or YAML) and
 * --stdin (JSON). `required: false` lets an update change only the slug.
 */
export async function readFieldValues(
  io: Io,
  opts: DataOptions,
  required: boolean,
): Promise<Record<string, unknown> | undefined> {
  const given = [opts.data !== undefined, opts.file !== undefined, opts.stdin === true].filter(Boolean).length;
  if (given > 1) throw new UsageError('Give the field values once: --data, --file or --stdin');
  if (given === 0) {
    if (required) throw new UsageError('Give the field values with --data JSON, --file PATH or --stdin');
    return undefined;
  }
  let value: unknown;
  if (opts.data !== undefined) value = await parseDocument(opts.data, '--data');
  else if (opts.file !== undefined) value = await readDocumentFile(io, opts.file);
  else value = await parseDocument(await io.readStdin(), 'stdin');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError('The field values must be a JSON object, e.g. {"title":"Hello"}');
  }
  return value as Record<string, unknown>;
}

/** A positive integer option (commander parser); anything else is a usage error. */
export function positiveInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${name} must be a positive integer`);
    return Number(value);
  };
}
