/** Public face of the fields module: field definitions, their rules and entry value validation. */

export { BLOCKS_MAX_ITEMS } from './blocks-rules.js';
export * from './datetime.js';
export * from './definition.js';
export { SUB_FIELD_TYPES } from './repeater-rules.js';
export { VALIDATION_KEYS } from './type-rules.js';
export * from './types.js';
export * from './url.js';
export * from './values.js';
export { MAX_REFERENCE_IDS } from './values-scalar.js';
