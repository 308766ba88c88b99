import type { SchemaSnapshot } from '../schema/model.js';
import {
  jsonColumn,
  keep,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
} from '../stored-record.js';
import { TOKENIZERS } from './model.js';
import { planTiers, SearchWeight, searchableFields } from './tiers.js';

const TOKENIZER_NAMES: ReadonlySet<string> = new Set(TOKENIZERS);

/**
 * A collection's search settings from elsewhere (a site package), judged by
 * the rules enabling search applies: a tokenizer of the list, each weight
 * more than 0 and at most MAX_WEIGHT, and the collection's searchable fields
 * (from the package's schema) using at most four different weights. Weights
 * of fields the collection no longer has are kept, as a save keeps them.
 * Whether PostgreSQL has pg_trgm for `trigram` is the index build's to say.
 */
export function storedSearchSettings(row: StoredRow, snap: SchemaSnapshot): StoredVerdict {
  if (!TOKENIZER_NAMES.has(row.tokenizer as string)) {
    return refuse(row, `tokenizer "${String(row.tokenizer)}" is not one of ${TOKENIZERS.join(', ')}`);
  }
  const parsed = jsonColumn(row, 'weights');
  if (!parsed.ok) return refuse(row, parsed.problem);
  const weights = parsed.value;
  if (typeof weights !== 'object' || weights === null || Array.isArray(weights)) {
    return refuse(row, 'weights must be an object of field ID → weight');
  }
  for (const [id, w] of Object.entries(weights)) {
    const judged = schemaVerdict(SearchWeight, w, `weights.${id}`);
    if (!judged.ok) return refuse(row, judged.problem);
  }
  const c = snap.collectionsById.get(String(row.collection_id));
  if (c) {
    const problem = ruleProblem(() => planTiers(searchableFields(c.fields), weights as Record<string, number>, null));
    if (problem) return refuse(row, problem);
  }
  return keep(row);
}
