import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach } from 'vitest';
import { listen, type RunningServer } from '../../src/http/server.js';
import type { TestCms } from './cms.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    await new Promise<void>((done) => s.server.close(() => done()));
  }
});

/** Listen on a loopback port (the service itself is closed by testCms). */
export async function serve(cms: TestCms): Promise<string> {
  const running = await listen(cms, 0, '127.0.0.1');
  // `stop()` would close the database too; the test harness does that.
  servers.push(running);
  return running.url;
}

export interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: any;
  _meta?: { code?: string; details?: any };
}

export interface McpTestClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Call and parse the JSON of the first content block; fails the test on a tool error. */
  ok<T = any>(name: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export async function mcpClient(baseUrl: string, token: string): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/_cms/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'cms-tests', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as unknown as ToolResult;
  return {
    client,
    call,
    async ok(name, args) {
      const res = await call(name, args);
      if (res.isError) throw new Error(`${name} failed: ${res.content[0]?.text}`);
      return JSON.parse(res.content[0].text);
    },
    close: () => client.close(),
  };
}
