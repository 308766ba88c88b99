/**
 * The command line's failures. Exit codes are part of its contract:
 * 0 success, 1 failure (the site or database refused, or could not be
 * reached), 2 usage (a wrong command, option or input file).
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Errors a command reports as one line on stderr with a non-zero exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = EXIT_FAILURE,
  ) {
    super(message);
  }
}

/** The command was called wrongly: exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
  }
}

/**
 * What the API (remote) or the services (local) answered: the stable error
 * code, its message and details, printed alike for both targets.
 */
export class ApiError extends CliError {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly status?: number,
  ) {
    super(message, EXIT_FAILURE);
  }
}

interface Issue {
  path?: unknown[];
  message?: string;
}

/** `[CODE] message` and one line per validation issue naming the field. */
export function describeApiError(err: ApiError): string {
  const lines = [`[${err.code}] ${err.message}`];
  const issues = err.details?.issues;
  if (Array.isArray(issues)) {
    for (const issue of issues.slice(0, 20) as Issue[]) {
      const path = Array.isArray(issue.path) && issue.path.length ? issue.path.join('.') : '(value)';
      lines.push(`  ${path}: ${issue.message ?? 'invalid'}`);
    }
    if (issues.length > 20) lines.push(`  … and ${issues.length - 20} more`);
  } else if (err.details && Object.keys(err.details).length) {
    lines.push(`  details: ${JSON.stringify(err.details)}`);
  }
  return lines.join('\n');
}
