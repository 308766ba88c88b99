import { describe, expect, it } from 'vitest';
import { OPERATION_ROUTES } from '../../generated/operation-routes.gen.js';
import { systemActor } from '../../src/auth/actor.js';
import { CmsError } from '../../src/core/errors.js';
import { coreTools } from '../../src/mcp/tools/index.js';
import { CATALOGUE } from '../../src/operations/index.js';
import { type AnyOperation, type Door, invoke } from '../../src/operations/operation.js';
import { holdsMet } from '../../src/services/holds.js';
import type { Services } from '../../src/services/index.js';

/**
 * The catalogue's rules hold for every operation, whatever door serves it:
 * a write meets every hold it does not declare itself open during and never
 * reaches its service while one is on; a read never asks. Checked here for
 * each operation at once rather than route by route, so an operation added
 * later is covered the day it is declared.
 */
const HOLD_CODES = {
  siteImport: 'TRANSFER_IMPORT_IN_PROGRESS',
  mediaUsageActivation: 'MEDIA_USAGE_ACTIVATION_IN_PROGRESS',
} as const;

function holding(on: keyof typeof HOLD_CODES | null) {
  const asked: string[] = [];
  const gate = (hold: keyof typeof HOLD_CODES) => ({
    async checkWritesOpen() {
      asked.push(hold);
      if (hold === on) throw new CmsError(HOLD_CODES[hold], 'held');
    },
  });
  const services = { transfer: gate('siteImport'), mediaUsage: gate('mediaUsageActivation') } as unknown as Services;
  return { services, asked };
}

/** The operation with its service call replaced: what reaches it is recorded, nothing runs. */
function spied(op: AnyOperation) {
  const runs: unknown[] = [];
  return { op: { ...op, run: async (_call: unknown, input: unknown) => runs.push(input) } as AnyOperation, runs };
}

const DOORS: Door[] = ['rest', 'mcp', 'cli'];
const operations = [...CATALOGUE.values()];

describe('the operation catalogue', () => {
  it('holds operations under unique ids, each documented one callable by the remote command line', () => {
    expect(operations.length).toBeGreaterThan(10);
    expect(new Set(operations.map((op) => op.id)).size).toBe(operations.length);
    const documented = operations.filter((op) => op.id in OPERATION_ROUTES);
    // A documented write is never a GET, a documented read is always one.
    for (const op of documented) {
      const { method } = OPERATION_ROUTES[op.id as keyof typeof OPERATION_ROUTES];
      expect(method === 'get', `${op.id} (${method})`).toBe(!op.writes);
    }
  });

  it('lets every MCP tool of an operation claim read-only exactly when it does not write', () => {
    for (const tool of coreTools) {
      expect(tool.annotations.readOnlyHint === true, tool.name).toBe(!tool.operation.writes);
    }
  });

  for (const hold of Object.keys(HOLD_CODES) as Array<keyof typeof HOLD_CODES>) {
    it(`refuses every write it does not stay open for while ${hold} is on, before the service, on every door`, async () => {
      let refused = 0;
      for (const operation of operations.filter((op) => op.writes)) {
        for (const door of DOORS) {
          const { op, runs } = spied({ ...operation, scope: null });
          const { services } = holding(hold);
          const meets = holdsMet(op.openDuring).includes(hold);
          const call = invoke(op, { services, actor: systemActor, door }, {}, { passed: { parsed: true } });
          if (meets) {
            await expect(call, `${op.id} via ${door}`).rejects.toMatchObject({ code: HOLD_CODES[hold] });
            expect(runs, op.id).toHaveLength(0);
            refused++;
          } else {
            await call;
            expect(runs, op.id).toHaveLength(1);
          }
        }
      }
      expect(refused).toBeGreaterThan(0);
    });
  }

  it('never asks a hold for a read', async () => {
    for (const operation of operations.filter((op) => !op.writes)) {
      const { op, runs } = spied({ ...operation, scope: null });
      const { services, asked } = holding('siteImport');
      await invoke(op, { services, actor: systemActor, door: 'cli' }, {}, { passed: { parsed: true } });
      expect(asked, op.id).toEqual([]);
      expect(runs).toHaveLength(1);
    }
  });

  it('checks the tool scope on MCP calls only; the service checks the permission on every door', async () => {
    const op = operations.find((o) => o.scope !== null && !o.writes);
    expect(op).toBeDefined();
    const token = { ...systemActor, scopes: [] as string[] };
    const { services } = holding(null);
    const { op: s } = spied(op as AnyOperation);
    const passed = { passed: { parsed: true } };
    await expect(invoke(s, { services, actor: token as never, door: 'mcp' }, {}, passed)).rejects.toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
    });
    await invoke(s, { services, actor: token as never, door: 'rest' }, {}, passed);
  });

  it('parses each part with its schema and names the part in a failure, as REST does', async () => {
    const op = operations.find((o) => o.params !== undefined);
    const { services } = holding(null);
    const { op: s } = spied({ ...(op as AnyOperation), scope: null, writes: false });
    await expect(
      invoke(s, { services, actor: systemActor, door: 'cli' }, { params: { nope: '\u0000' } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(invoke(s, { services, actor: systemActor, door: 'cli' }, { params: {} })).rejects.toThrow(
      /Invalid request param/,
    );
  });
});
