import { SLUG_PATTERN } from '../fields/types.js';
import {
  fitted,
  flagProblem,
  positionProblem,
  refuse,
  type StoredRow,
  type StoredVerdict,
  storedInstants,
} from '../stored-record.js';
import { MAX_COLLECTION_SLUG } from './collections.js';

/** A relation is named `{collection}_{field}` after the field that made it: both identifiers. */
const MAX_RELATION_NAME = MAX_COLLECTION_SLUG + 1 + 63;

export const RELATION_NORMALISED = 'relation_normalised';
export const LINK_NORMALISED = 'link_normalised';

/**
 * A relation from elsewhere (a site package): named as the schema service
 * names the relations it creates, `multiple` a flag. Its ends are rows of
 * the package (the importer drops a relation whose collections it lacks).
 */
export function storedRelation(row: StoredRow): StoredVerdict {
  if (typeof row.name !== 'string' || !SLUG_PATTERN.test(row.name) || row.name.length > MAX_RELATION_NAME) {
    return refuse(row, `name must match ^[a-z][a-z0-9_]*$ (at most ${MAX_RELATION_NAME} characters)`);
  }
  const flag = flagProblem(row, 'multiple');
  if (flag) return refuse(row, flag);
  const instants = storedInstants(row, ['created_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, ...instants.values }, RELATION_NORMALISED);
}

/** A link of a relation: its place among the parent's children, when it was made. */
export function storedLink(row: StoredRow): StoredVerdict {
  const position = positionProblem(row);
  if (position) return refuse(row, position);
  const instants = storedInstants(row, ['created_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, ...instants.values }, LINK_NORMALISED);
}
