import type { Client } from 'openapi-fetch';
import type { paths } from '../../../generated/api-schema.gen.js';
import { OPERATION_ROUTES, type OperationId } from '../../../generated/operation-routes.gen.js';

/**
 * The command line's methods that are one operation of the catalogue
 * (operations/<domain>.ts), each with how its arguments become the
 * operation's parts. Both targets are built from this one table: the local
 * target invokes the operation on the database (local-operations.ts; the
 * tables by group are in bindings/), the
 * remote target calls the same operation id through the generated client, so
 * the two cannot disagree on what a method does. The table names operations
 * by id only: a remote command loads no server code.
 */
export type Parts = { params?: object; query?: object; body?: unknown };

export interface Binding<A extends unknown[]> {
  operation: OperationId;
  parts(...args: A): Parts;
}

/** A binding table of a target's methods group: each method it binds, with that method's arguments. */
export type Bindings<T> = { [K in keyof T]?: T[K] extends (...args: infer A) => unknown ? Binding<A> : never };

export const bind = <A extends unknown[]>(operation: OperationId, parts: (...args: A) => Parts): Binding<A> => ({
  operation,
  parts,
});

/** The methods a binding table gives a target, typed as the target declares them. */
export type Bound<B, T> = { [K in keyof B & keyof T]: T[K] };

// biome-ignore lint/suspicious/noExplicitAny: a table binds methods of every argument list.
export type BindingTable = Record<string, Binding<any[]>>;

/** The remote target's methods: the operation id's route through the generated client, its answer unwrapped. */
export function calledBy<B extends BindingTable, T>(
  bindings: B,
  api: Client<paths>,
  unwrap: (call: Promise<never>) => Promise<unknown>,
): Bound<B, T> {
  const out: Record<string, unknown> = {};
  for (const [name, b] of Object.entries(bindings)) {
    const route = OPERATION_ROUTES[b.operation];
    out[name] = (...args: unknown[]) => {
      const { params, query, body } = b.parts(...args);
      const init = { params: { path: params, query }, ...(body === undefined ? {} : { body }) };
      return unwrap(api.request(route.method, route.path as never, init as never) as Promise<never>);
    };
  }
  return out as Bound<B, T>;
}
