import { ApiError } from '../api/errors';

/**
 * The message of a server field issue whose path matches `name`
 * (`details.issues[].path` joined with dots: `email`, `fields.0.slug` …).
 */
export function issueFor(error: unknown, name: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.issues.find((i) => i.path.join('.') === name)?.message;
}

/** Issues none of the listed fields shows: they go into the form's summary instead. */
export function otherIssues(error: unknown, shown: readonly string[]): string[] {
  if (!(error instanceof ApiError)) return [];
  return error.issues
    .filter((i) => !shown.includes(i.path.join('.')))
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}

/** The trimmed value, or undefined when empty (optional fields are left out of request bodies). */
export function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed ? trimmed : undefined;
}
