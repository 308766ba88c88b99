import { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import type { OpenDuring } from '../services/holds.js';
import type { Services } from '../services/index.js';

/**
 * One MCP tool: name, title and scope from the spec's tool table, an input
 * schema built from the same zod schemas the REST API validates with, and a
 * function that calls one service. Adding a tool is one `tool({...})` entry.
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

export interface ToolDef<I extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  /**
   * Scope a token needs (the `admin` scope satisfies every core tool); null
   * when the tool checks access itself (site transfer: the Admin role first,
   * then the scope or an approval).
   */
  scope: string | null;
  annotations: ToolAnnotations;
  input: I;
  /** Schema of `structuredContent`, when the result has a fixed shape. */
  output?: z.ZodType;
  /** A writing tool (not `readOnlyHint`) meets every hold (services/holds.ts) but the ones named here. */
  openDuring?: OpenDuring;
  run(ctx: ToolContext, args: z.output<I>): Promise<unknown>;
}

export function tool<I extends z.ZodType>(def: ToolDef<I>): ToolDef {
  // Unknown arguments are refused, as unknown keys of REST bodies are: a typo must not pass silently.
  const input = def.input instanceof z.ZodObject ? def.input.strict() : def.input;
  return { ...def, input } as unknown as ToolDef;
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
