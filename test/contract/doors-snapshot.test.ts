import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { staticToken } from '../../src/cli/remote.js';
import { openLocalTarget } from '../../src/cli/target/local.js';
import { openRemoteTarget } from '../../src/cli/target/remote.js';
import type { Target } from '../../src/cli/target/types.js';
import { testCms } from '../helpers/cms.js';
import { mcpClient, serve } from '../helpers/mcp.js';

/**
 * What each door offers, pinned: the OpenAPI document, the MCP tool list
 * (names, titles, annotations, input and output schemas) and the CLI
 * target's operations. A change to any of them fails here until the
 * snapshot is rewritten on purpose (`npx vitest run test/contract/doors-snapshot.test.ts -u`: the
 * flag after the file, as vitest 4 takes the word after `-u` for its value and would run everything),
 * so moving code between the doors and a shared declaration shows as an
 * empty diff, and a real change to the contract shows in review.
 */

const SNAPSHOTS = './__snapshots__/doors';

/** Keys sorted at every depth, so the snapshot does not move with declaration order alone. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

const text = (value: unknown) => `${JSON.stringify(sorted(value), null, 2)}\n`;

/** The operation names a target offers, as `group.sub.method`, sorted. */
function operations(target: Target): string[] {
  const names: string[] = [];
  const walk = (node: object, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'function') names.push(`${prefix}${key}`);
      else if (value && typeof value === 'object') walk(value, `${prefix}${key}.`);
    }
  };
  const { kind: _kind, label: _label, ...groups } = target;
  walk(groups, '');
  return names.filter((n) => n !== 'close').sort();
}

describe('door snapshot', () => {
  it('the OpenAPI document is the one pinned', async () => {
    const cms = await testCms('sqlite');
    const res = await cms.app.request('/_cms/api/openapi.json');
    expect(res.status).toBe(200);
    await expect(text(await res.json())).toMatchFileSnapshot(`${SNAPSHOTS}/openapi.json`);
  });

  it('the MCP tool list is the one pinned', async () => {
    const cms = await testCms('sqlite');
    const url = await serve(cms);
    const mcp = await mcpClient(url, cms.adminToken);
    try {
      const { tools } = await mcp.client.listTools();
      const byName = [...tools].sort((a, b) => a.name.localeCompare(b.name));
      await expect(text(byName)).toMatchFileSnapshot(`${SNAPSHOTS}/mcp-tools.json`);
    } finally {
      await mcp.close();
    }
  });

  it('the CLI targets offer the same operations, the ones pinned', async () => {
    const remote = openRemoteTarget(staticToken('http://127.0.0.1:9', 'unused'));
    const dir = mkdtempSync(join(tmpdir(), 'cms-doors-'));
    const io: Io = {
      stdout: { write: () => true },
      stderr: { write: () => true },
      readStdin: async () => '',
      env: { CMS_DATA_DIR: dir, CMS_LOG_LEVEL: 'silent', CMS_DATABASE_URL: `sqlite:${join(dir, 'cms.db')}` },
      cwd: dir,
    };
    const local = await openLocalTarget({ io });
    try {
      expect(operations(local)).toEqual(operations(remote));
      await expect(text(operations(local))).toMatchFileSnapshot(`${SNAPSHOTS}/cli-operations.json`);
    } finally {
      await local.close();
      await remote.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
