import type { z } from 'zod';
import { type Actor, requireScope } from '../auth/actor.js';
import { schemaError } from '../core/errors.js';
import { assertStorable } from '../core/text.js';
import { checkHolds, type OpenDuring } from '../services/holds.js';
import type { Services } from '../services/index.js';

/**
 * The operation catalogue: each operation is declared once, beside its
 * service (`operations/<domain>.ts`), and every door serves that
 * declaration: a REST route is the operation plus a method and a path
 * (http/op.ts `route`), an MCP tool is the operation plus a name, a title and
 * annotations (mcp/registry.ts `toolOf`), the command line's local target
 * invokes it and its remote target calls the same operation id through the
 * generated client (cli/target/operations.ts). `invoke` is the one way in:
 * it applies the gates the declaration states, checks the input and calls
 * the service; the service checks the caller's role and the permission's
 * token scopes itself.
 *
 * Input comes in the parts REST gives it (path parameters, query, body), so
 * the REST door's validators are the operation's own schemas and the
 * command line passes the same parts to either target.
 */
type Part = z.ZodType | undefined;
type Parsed<T extends Part> = T extends z.ZodType ? z.output<T> : undefined;
type Given<T extends Part> = T extends z.ZodType ? z.input<T> : undefined;

export type OperationInput<P extends Part, Q extends Part, B extends Part> = {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
};

/** What a caller passes: the parts as they arrive, before parsing (omitted parts are empty). */
export type OperationArgs<P extends Part, Q extends Part, B extends Part> = {
  params?: Given<P>;
  query?: Given<Q>;
  body?: Given<B>;
};

/** The door a call came through: MCP calls also meet the tool scope of the spec's tool table. */
export type Door = 'rest' | 'mcp' | 'cli';

export interface OperationCall {
  services: Services;
  actor: Actor;
  door: Door;
  /** The HTTP request's headers, on REST (a comment's client details); absent on MCP and the CLI. */
  header?(name: string): string | undefined;
}

export interface Operation<
  P extends Part = Part,
  Q extends Part = Part,
  B extends Part = Part,
  R extends z.ZodType = z.ZodType,
> {
  /** The spec's operationId (the REST document's), unique across the catalogue. */
  id: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of the answer (`data` of the REST envelope, `structuredContent` of the tool). */
  output: R;
  /** Whether it changes state: a write meets the holds (services/holds.ts) and is never a GET or a read-only tool. */
  writes: boolean;
  /** The holds a write stays open during, each with the reason (every other hold refuses it). */
  openDuring?: OpenDuring;
  /**
   * The scope a token needs to call it as an MCP tool (the spec's tool table; `admin` covers every
   * core tool); null when the service checks access itself. On every door the service also checks
   * the role and the scopes of the permission it needs.
   */
  scope: string | null;
  run(call: OperationCall, input: OperationInput<P, Q, B>): Promise<z.input<R>>;
}

export function operation<
  P extends Part = undefined,
  Q extends Part = undefined,
  B extends Part = undefined,
  R extends z.ZodType = z.ZodType,
>(spec: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return spec;
}

// biome-ignore lint/suspicious/noExplicitAny: a catalogue holds operations of every input shape.
export type AnyOperation = Operation<any, any, any, any>;

/** What a door has already done for this call by the same rules, before `invoke` (REST: before the body is read). */
export interface Passed {
  /** The holds were checked with this operation's `openDuring` (http/middleware/holds.ts). */
  holds?: boolean;
  /** The input was checked for storable text (REST: the URL and the JSON body, http/middleware/body.ts). */
  storable?: boolean;
  /** The parts were parsed with this operation's own schemas. */
  parsed?: boolean;
}

const PARTS = ['params', 'query', 'body'] as const;
/** How a part is named in a failure (as the REST door names it). */
const PART_NAMES = { params: 'param', query: 'query', body: 'body' } as const;
const STORABLE_NAMES = { params: 'request path', query: 'request query', body: 'request body' } as const;

/**
 * A door's own input shape, when it is not the REST parts: an MCP tool's flat arguments, listed
 * in tools/list as they are. Checked (storable text, then the schema) before they become the
 * operation's parts, and named in a failure as the door names them.
 */
export interface DoorShape<A = unknown> {
  schema: z.ZodType<A>;
  /** The input's name in a failure ("tool arguments"). */
  what: string;
  toArgs(input: A): OperationArgs<Part, Part, Part>;
}

export interface InvokeOptions {
  passed?: Passed;
  shape?: DoorShape;
}

/** Check a value against a schema; a failure is the 400 naming what it is. */
function parseAs(schema: z.ZodType, value: unknown, message: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw schemaError(message, parsed.error.issues);
}

type InputPart = (typeof PARTS)[number];

/**
 * One input part checked as the REST door checks it: storable text (unless the caller checked
 * it already), then its schema; a failure is the 400 naming the part. A missing query or path
 * part is empty, a missing body is absent.
 */
export function checkPart<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: InputPart,
  storable = true,
): z.output<T> {
  if (storable && value !== undefined) assertStorable(value, STORABLE_NAMES[part]);
  return parseAs(
    schema,
    value ?? (part === 'body' ? undefined : {}),
    `Invalid request ${PART_NAMES[part]}`,
  ) as z.output<T>;
}

/**
 * Call an operation: the tool scope (MCP), the holds (a write), storable text, the input's
 * schemas, then the service. `passed` names what the door did itself by the same rules; a part
 * the operation declares no schema for passes as given (a door-shaped input already checked).
 */
export async function invoke<P extends Part, Q extends Part, B extends Part, R extends z.ZodType>(
  op: Operation<P, Q, B, R>,
  call: OperationCall,
  raw: OperationArgs<P, Q, B> | unknown,
  { passed = {}, shape }: InvokeOptions = {},
): Promise<z.input<R>> {
  if (call.door === 'mcp' && op.scope !== null) requireScope(call.actor, op.scope);
  if (op.writes && !passed.holds) await checkHolds(call.services, op.openDuring);
  let args = raw as OperationArgs<P, Q, B>;
  let storable = passed.storable === true;
  if (shape) {
    if (!storable) assertStorable(raw ?? {}, shape.what);
    args = shape.toArgs(parseAs(shape.schema, raw ?? {}, `Invalid ${shape.what}`)) as OperationArgs<P, Q, B>;
    storable = true;
  }
  if (passed.parsed) return op.run(call, args as OperationInput<P, Q, B>);
  const input: Record<string, unknown> = {};
  for (const part of PARTS) {
    const schema = op[part];
    input[part] = schema ? checkPart(schema, args[part], part, !storable) : args[part];
  }
  return op.run(call, input as OperationInput<P, Q, B>);
}
