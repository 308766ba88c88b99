import type { Api } from '../op.js';
import { schemaRoutes } from './schema.js';

/** Every REST route, grouped by resource. */
export function registerRoutes(api: Api): void {
  schemaRoutes(api);
}
