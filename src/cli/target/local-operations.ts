import { operationById } from '../../operations/index.js';
import { invoke, type OperationCall } from '../../operations/operation.js';
import type { BindingTable, Bound } from './operations.js';

/** The local target's methods of a binding table: `invoke` on the services, each failure answered as REST would. */
export function invokedBy<B extends BindingTable, T>(
  bindings: B,
  call: OperationCall,
  answer: <R>(fn: () => Promise<R>) => Promise<R>,
): Bound<B, T> {
  const out: Record<string, unknown> = {};
  for (const [name, b] of Object.entries(bindings)) {
    const operation = operationById(b.operation);
    out[name] = (...args: unknown[]) => answer(() => invoke(operation, call, b.parts(...args)));
  }
  return out as Bound<B, T>;
}
