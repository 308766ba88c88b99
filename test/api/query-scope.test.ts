import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { countStatement, currentQueryScope, inQueryScope } from '../../src/db/query-scope.js';
import { call, type TestCms, testCms } from '../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

describe('query scopes', () => {
  it('count a statement in the innermost scope and every scope around it, and nowhere outside one', async () => {
    countStatement(5);
    expect(currentQueryScope()).toBeUndefined();
    const outer = await inQueryScope(async (scope) => {
      countStatement(1.5);
      const inner = await inQueryScope(async (s) => {
        await new Promise((done) => setImmediate(done));
        countStatement(2);
        return s;
      });
      expect(inner).toMatchObject({ statements: 1, dbMs: 2, parent: scope });
      return scope;
    });
    expect(outer).toMatchObject({ statements: 2, dbMs: 3.5, parent: undefined });
  });

  it('keep scopes that run at the same time apart', async () => {
    const one = inQueryScope(async (s) => {
      for (let i = 0; i < 3; i++) {
        await new Promise((done) => setImmediate(done));
        countStatement(1);
      }
      return s.statements;
    });
    const two = inQueryScope(async (s) => {
      for (let i = 0; i < 5; i++) {
        await new Promise((done) => setImmediate(done));
        countStatement(1);
      }
      return s.statements;
    });
    expect(await Promise.all([one, two])).toEqual([3, 5]);
  });
});

interface LogLine {
  msg: string;
  reqId?: string;
  tool?: string;
  db?: { statements: number; ms: number };
}

async function debugCms(dialect: 'sqlite' | 'postgres') {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const cms = await testCms(dialect, { logger: createLogger('debug', sink) });
  return { cms, lines };
}

/** The access-log line of the request sent with this id. */
const requestLine = (lines: LogLine[], id: string) => lines.find((l) => l.msg === 'request' && l.reqId === id);

afterEach(() => {
  vi.useRealTimers();
});

describeEachDialect('query scope of a request', (dialect) => {
  async function seed(cms: TestCms) {
    await postsCollection(cms);
    for (let i = 0; i < 3; i++) {
      const { item } = await createEntry(cms, { data: { title: `Post ${i}` } });
      await publish(cms, item.id);
    }
  }

  it('a debug access-log line says the statements and database time of its own request, not of the ones beside it', async () => {
    const { cms, lines } = await debugCms(dialect);
    await seed(cms);
    // Time stands still from here: no cache reaches its re-check, so every request costs what it costs alone.
    vi.useFakeTimers({ toFake: ['Date'] });
    let seq = 0;
    const send = (method: string, path: string, body?: unknown) => {
      const id = `qs-${++seq}`;
      return { id, done: call(cms, method, path, { token: cms.adminToken, body, headers: { 'x-request-id': id } }) };
    };
    const alone = async (method: string, path: string, body?: unknown) => {
      const before = cms.database.queryCount;
      const { id, done } = send(method, path, body);
      expect((await done).status).toBeLessThan(300);
      return { id, global: cms.database.queryCount - before };
    };
    // A title of its own each time: a taken slug costs the search for a free number.
    const create = () => alone('POST', '/content/posts', { data: { title: `Fresh ${seq}` } });
    const list = () => alone('GET', '/content/posts?limit=10');
    await create();
    await list();
    for (const measured of [await create(), await list()]) {
      const line = requestLine(lines, measured.id);
      expect(line?.db?.statements).toBe(measured.global);
      expect(line?.db?.ms).toBeGreaterThanOrEqual(0);
    }
    const createCost = requestLine(lines, (await create()).id)?.db?.statements ?? 0;
    const listCost = requestLine(lines, (await list()).id)?.db?.statements ?? 0;
    expect(createCost).toBeGreaterThan(listCost);
    expect(listCost).toBeGreaterThan(0);

    // Four requests at once, interleaved on the connection(s): each line still counts its own statements.
    const before = cms.database.queryCount;
    const together = [
      send('POST', '/content/posts', { data: { title: 'Together A' } }),
      send('GET', '/content/posts?limit=10'),
      send('POST', '/content/posts', { data: { title: 'Together B' } }),
      send('GET', '/content/posts?limit=10'),
    ];
    for (const r of await Promise.all(together.map((t) => t.done))) expect(r.status).toBeLessThan(300);
    const counts = together.map((t) => requestLine(lines, t.id)?.db?.statements);
    expect(counts).toEqual([createCost, listCost, createCost, listCost]);
    expect(cms.database.queryCount - before).toBe(2 * createCost + 2 * listCost);
  });

  it('a tool call has a scope of its own inside its request', async () => {
    const { cms, lines } = await debugCms(dialect);
    await seed(cms);
    const url = await serve(cms);
    const mcp = await mcpClient(url, cms.adminToken);
    vi.useFakeTimers({ toFake: ['Date'] });
    await mcp.ok('content_list', { collection: 'posts' });
    const before = cms.database.queryCount;
    const listed = await mcp.ok('content_list', { collection: 'posts' });
    expect(listed.items).toHaveLength(3);
    const global = cms.database.queryCount - before;
    const tool = lines.filter((l) => l.msg === 'tool call' && l.tool === 'content_list').at(-1);
    expect(tool?.db?.statements).toBe(global);
    // Its request (the token was looked up before, so the tool's statements are all there is) says the same.
    const request = lines.find((l) => l.msg === 'request' && l.reqId === (tool as { reqId?: string }).reqId);
    expect(request?.db?.statements).toBe(global);
    await mcp.close();
  });

  it('nothing is measured without debug logs', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const seen: Array<ReturnType<typeof currentQueryScope>> = [];
    const off = cms.services.content.hooks.afterWrite('probe', async () => {
      seen.push(currentQueryScope());
    });
    await createEntry(cms, { data: { title: 'x' } });
    off();
    expect(seen).toEqual([undefined]);
  });
});
