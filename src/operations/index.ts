import * as auth from './auth.js';
import * as bylines from './bylines.js';
import * as check from './check.js';
import * as comments from './comments.js';
import * as content from './content.js';
import * as importing from './import.js';
import * as media from './media.js';
import * as mediaUsage from './media-usage.js';
import * as menus from './menus.js';
import * as oauth from './oauth.js';
import type { AnyOperation } from './operation.js';
import * as redirects from './redirects.js';
import * as schema from './schema.js';
import * as search from './search.js';
import * as sections from './sections.js';
import * as seo from './seo.js';
import * as settings from './settings.js';
import * as taxonomies from './taxonomies.js';
import * as transfer from './transfer.js';
import * as users from './users.js';
import * as widgets from './widgets.js';

/**
 * Every operation of the catalogue by its id (operations/<domain>.ts):
 * what the command line's local target resolves an operation id with. Two
 * operations with one id stop start-up here.
 */
const DOMAINS: ReadonlyArray<Record<string, unknown>> = [
  taxonomies,
  settings,
  sections,
  widgets,
  seo,
  redirects,
  schema,
  bylines,
  search,
  check,
  content,
  media,
  mediaUsage,
  comments,
  users,
  transfer,
  importing,
  auth,
  menus,
  oauth,
];

const isOperation = (value: unknown): value is AnyOperation =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyOperation).id === 'string' &&
  typeof (value as AnyOperation).run === 'function';

function index(): ReadonlyMap<string, AnyOperation> {
  const byId = new Map<string, AnyOperation>();
  for (const domain of DOMAINS) {
    for (const op of Object.values(domain)) {
      // A domain module exports its operations (and may export other things: module loaders add keys of their own).
      if (!isOperation(op)) continue;
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
