import { createInterface } from 'node:readline';
import { CmsError } from '../../core/errors.js';
import { findTextProblem, type TextProblem } from '../../core/text.js';
import type { Storage } from '../../storage/types.js';
import type { FileRow } from './files.js';

/**
 * Reading a stored record file line by line (memory stays at one line). A
 * line that is not a JSON object, or holds text no database stores (NUL,
 * unpaired surrogates, nesting past the limit), is a package defect,
 * reported with its file and line number.
 */
export async function* readRecords(storage: Storage, file: FileRow): AsyncGenerator<Record<string, unknown>> {
  const read = file.storage_key ? await storage.read(file.storage_key) : null;
  if (!read) throw new CmsError('NOT_FOUND', `The uploaded file "${file.path}" is no longer in storage`);
  const lines = createInterface({ input: read.body, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const line of lines) {
      n += 1;
      if (line === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw badRecord(file.path, n, 'not JSON');
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw badRecord(file.path, n, 'not a JSON object');
      }
      // What the database could not store is a defect of the package, found before anything is written.
      const problem = findTextProblem(value) ?? jsonTextProblem(value as Record<string, unknown>);
      if (problem) throw badRecord(file.path, n, `${problem.path.join('.') || 'value'} ${problem.message}`);
      yield value as Record<string, unknown>;
    }
  } finally {
    lines.close();
    read.body.destroy();
  }
}

/**
 * System tables keep JSON as text (a revision's values, a comment's spam
 * reasons, field definitions …): the escapes inside it (`\u0000`, a lone
 * `\ud800`) are plain characters to the check above, but become the
 * characters themselves once the text is read back and written elsewhere
 * (publishing a revision). So a column holding JSON text is checked at every
 * depth of the JSON it holds.
 */
function jsonTextProblem(record: Record<string, unknown>): TextProblem | null {
  for (const [column, v] of Object.entries(record)) {
    if (typeof v !== 'string' || !/^\s*[[{"]/.test(v)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      continue;
    }
    const problem = findTextProblem(parsed);
    if (problem) return { ...problem, path: [column, ...problem.path] };
  }
  return null;
}

export class BadRecord extends CmsError {
  constructor(
    readonly path: string,
    readonly line: number,
    reason: string,
  ) {
    super('VALIDATION_ERROR', `${path}, line ${line}: ${reason}`, { path, line });
  }
}

export function badRecord(path: string, line: number, reason: string): BadRecord {
  return new BadRecord(path, line, reason);
}
