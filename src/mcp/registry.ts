import { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import type { AnyOperation, DoorShape, OperationArgs } from '../operations/operation.js';
import type { OpenDuring } from '../services/holds.js';
import type { Services } from '../services/index.js';

/**
 * MCP tools: name, title and scope from the spec's tool table, an input
 * schema built from the same zod schemas the REST API validates with, and the
 * operation it calls: `toolOf(operation, {...})` for an operation of the
 * catalogue, `tool({...})` for one of its own.
 */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolContext {
  services: Services;
  actor: Actor;
}

/**
 * A tool as the server lists and calls it: its listing (name, title, description, annotations,
 * the input schema of its flat arguments) and the catalogue operation it calls, with how its
 * arguments become that operation's parts. The server calls every tool through `invoke`.
 */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The arguments as tools/list shows them (unknown keys refused). */
  input: z.ZodType;
  /** Schema of `structuredContent`, when the result has a fixed shape. */
  output?: z.ZodType;
  operation: AnyOperation;
  shape: DoorShape;
}

/** Unknown arguments are refused, as unknown keys of REST bodies are: a typo must not pass silently. */
const strict = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodObject ? schema.strict() : schema);

const readOnly = (annotations: ToolAnnotations) => annotations.readOnlyHint === true;

/** What every tool is made of: its listing, the operation it calls and how its arguments become the operation's parts. */
function toolDef(
  listing: { name: string; title: string; description: string; annotations: ToolAnnotations; input: z.ZodType },
  output: z.ZodType | undefined,
  operation: AnyOperation,
  toArgs: DoorShape['toArgs'],
): ToolDef {
  const input = strict(listing.input);
  const { name, title, description, annotations } = listing;
  return {
    name,
    title,
    description,
    annotations,
    input,
    output,
    operation,
    shape: { schema: input, what: 'tool arguments', toArgs },
  };
}

/** A tool that is one operation of the catalogue (operations/<domain>.ts). */
export function toolOf<I extends z.ZodType>(
  operation: AnyOperation,
  def: {
    name: string;
    title: string;
    description: string;
    annotations: ToolAnnotations;
    input: I;
    /** The parsed arguments as the operation's parts (path parameters, query, body). */
    toArgs(args: z.output<I>): OperationArgs<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;
  },
): ToolDef {
  if (readOnly(def.annotations) === operation.writes) {
    throw new Error(`Tool ${def.name}: readOnlyHint must say whether ${operation.id} writes`);
  }
  return toolDef(def, operation.output, operation, def.toArgs as DoorShape['toArgs']);
}

/**
 * A tool that is no REST operation (or not yet one of the catalogue): its own operation, its
 * arguments the whole input. Name, title and scope come from the spec's tool table.
 */
export function tool<I extends z.ZodType>(def: {
  name: string;
  title: string;
  description: string;
  /**
   * Scope a token needs (the `admin` scope satisfies every core tool); null when the tool checks
   * access itself (site transfer: the Admin role first, then the scope or an approval).
   */
  scope: string | null;
  annotations: ToolAnnotations;
  input: I;
  output?: z.ZodType;
  /** A writing tool (not `readOnlyHint`) meets every hold (services/holds.ts) but the ones named here. */
  openDuring?: OpenDuring;
  run(ctx: ToolContext, args: z.output<I>): Promise<unknown>;
}): ToolDef {
  const operation: AnyOperation = {
    id: def.name,
    output: def.output ?? z.unknown(),
    writes: !readOnly(def.annotations),
    openDuring: def.openDuring,
    scope: def.scope,
    run: (call, parts) => def.run(call, parts.body as z.output<I>),
  };
  return toolDef(def, def.output, operation, (args) => ({ body: args }));
}

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
export const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };

/** JSON Schema of a tool's input as clients see it in tools/list. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}
