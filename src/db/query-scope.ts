import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the SQL statements run on behalf of one unit of work (an HTTP request, an MCP tool call) cost:
 * how many, and the database time Kysely measured for them (each statement from sent to answered,
 * so statements that overlap each count in full). Work the unit starts and leaves running (a
 * background version check, a task after the answer) carries the scope along and keeps adding to it.
 */
export interface QueryScope {
  statements: number;
  dbMs: number;
  /** The enclosing scope (a tool call's request): every statement counts in it too. */
  readonly parent: QueryScope | undefined;
}

const scopes = new AsyncLocalStorage<QueryScope>();

/** Run `fn` in a new scope (nested in the current one, if any); `fn` receives it. */
export function inQueryScope<T>(fn: (scope: QueryScope) => T): T {
  const scope: QueryScope = { statements: 0, dbMs: 0, parent: scopes.getStore() };
  return scopes.run(scope, fn, scope);
}

/** The innermost scope of the running code, if any. */
export function currentQueryScope(): QueryScope | undefined {
  return scopes.getStore();
}

/**
 * Count one statement of `ms` in the current scope and the scopes around it. Called for every
 * statement (connect.ts): outside any scope it is one store lookup, with nothing allocated.
 */
export function countStatement(ms: number): void {
  for (let scope = scopes.getStore(); scope !== undefined; scope = scope.parent) {
    scope.statements++;
    scope.dbMs += ms;
  }
}

/** Milliseconds to one decimal, as logs and headers show them. */
export const roundMs = (ms: number): number => Math.round(ms * 10) / 10;
