import * as menus from './menus/operations.js';
import type { AnyOperation } from './operation.js';

/**
 * Every operation of the catalogue by its id (services/<domain>/operations.ts):
 * what the command line's local target resolves an operation id with. Two
 * operations with one id stop start-up here.
 */
const DOMAINS: ReadonlyArray<Record<string, AnyOperation>> = [menus];

function index(): ReadonlyMap<string, AnyOperation> {
  const byId = new Map<string, AnyOperation>();
  for (const domain of DOMAINS) {
    for (const op of Object.values(domain)) {
      if (byId.has(op.id)) throw new Error(`Two operations are named ${op.id}`);
      byId.set(op.id, op);
    }
  }
  return byId;
}

export const CATALOGUE = index();

export function operationById(id: string): AnyOperation {
  const op = CATALOGUE.get(id);
  if (!op) throw new Error(`No operation ${id} in the catalogue`);
  return op;
}
