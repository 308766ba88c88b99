import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../auth/actor.js';
import { CmsError, knownFailure } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { RELEASE_VERSION } from '../core/version.js';
import { currentQueryScope, inQueryScope, roundMs } from '../db/query-scope.js';
import { invoke } from '../operations/operation.js';
import type { Services } from '../services/index.js';
import { jsonSchemaOf, type ToolDef } from './registry.js';
import { coreTools } from './tools/index.js';

export const MCP_SERVER_INFO = { name: 'cms', version: RELEASE_VERSION };

/** A tool failure as the spec shapes it: `isError`, `[CODE] message` first, the code and details in `_meta`. */
export function errorResult(err: CmsError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `[${err.code}] ${err.message}` }],
    _meta: { code: err.code, ...(err.details ? { details: err.details } : {}) },
  };
}

function toolList(tools: ToolDef[]) {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchemaOf(t.input, 'input'),
    ...(t.output ? { outputSchema: jsonSchemaOf(t.output, 'output') } : {}),
    annotations: { title: t.title, ...t.annotations },
  }));
}

/**
 * A fresh MCP server for one request (stateless Streamable HTTP), bound to
 * the caller. Tools call services; the scope is checked here, the role in
 * the services.
 */
export function createMcpServer(services: Services, actor: Actor, log: Logger, tools: ToolDef[] = coreTools): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  const byName = new Map(tools.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList(tools) }));

  const callTool = async (request: CallToolRequest): Promise<CallToolResult> => {
    const def = byName.get(request.params.name);
    if (!def) return errorResult(new CmsError('NOT_FOUND', `Unknown tool "${request.params.name}"`));
    try {
      // Scope, holds (spec 2, rule 8), storable text and the arguments: the operation's gates.
      const result = await invoke(def.operation, { services, actor, door: 'mcp' }, request.params.arguments ?? {}, {
        shape: def.shape,
      });
      const text = JSON.stringify(result ?? null);
      return {
        content: [{ type: 'text', text }],
        ...(def.output && result && typeof result === 'object'
          ? { structuredContent: result as Record<string, unknown> }
          : {}),
      };
    } catch (err) {
      const known = knownFailure(err);
      if (known) return errorResult(known);
      log.error({ err, tool: def.name }, 'tool failed');
      return errorResult(new CmsError('INTERNAL_ERROR', 'Internal error'));
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    // A measured request (its query scope open) measures each tool call in a scope of its own.
    if (!currentQueryScope()) return callTool(request);
    return inQueryScope(async (scope) => {
      const started = performance.now();
      const result = await callTool(request);
      log.debug(
        {
          tool: request.params.name,
          isError: result.isError === true,
          ms: roundMs(performance.now() - started),
          db: { statements: scope.statements, ms: roundMs(scope.dbMs) },
        },
        'tool call',
      );
      return result;
    });
  });
  return server;
}
