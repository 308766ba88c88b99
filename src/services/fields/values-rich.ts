/** Value checks for json and portableText fields. */
import { type IssuePath, type IssueSink, isPlainObject, kindOf, report } from './issue.js';
import { checkUrl } from './url.js';
import { typeIssue, type ValueChecker } from './values-scalar.js';

/** Nesting deeper than this is refused instead of risking a stack overflow on hostile input. */
export const MAX_JSON_DEPTH = 100;

type ObjectVisitor = (obj: Record<string, unknown>, path: IssuePath) => void;

/**
 * Reports every part of `value` that JSON cannot carry: undefined, functions, bigint, NaN,
 * Infinity, class instances (Date, Map …) and cycles, so what is stored reads back the same.
 */
function walkJson(value: unknown, path: IssuePath, sink: IssueSink, visit?: ObjectVisitor): void {
  const ancestors = new Set<object>();
  const walk = (v: unknown, p: IssuePath, depth: number): void => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) report(sink, p, 'invalid_json', `${v} is not a JSON number`);
      return;
    }
    if (typeof v !== 'object' || !(Array.isArray(v) || isPlainObject(v))) {
      report(sink, p, 'invalid_json', `${kindOf(v)} is not a JSON value`);
      return;
    }
    if (depth >= MAX_JSON_DEPTH) {
      report(sink, p, 'too_deep', `nesting is limited to ${MAX_JSON_DEPTH} levels`);
      return;
    }
    if (ancestors.has(v)) {
      report(sink, p, 'invalid_json', 'circular structure is not JSON');
      return;
    }
    ancestors.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], [...p, i], depth + 1);
    } else {
      visit?.(v as Record<string, unknown>, p);
      for (const [k, child] of Object.entries(v)) walk(child, [...p, k], depth + 1);
    }
    ancestors.delete(v);
  };
  walk(value, path, 0);
}

export const checkJson: ValueChecker = (_field, value, path, ctx) => {
  walkJson(value, path, ctx.sink);
  return value;
};

function checkTyped(obj: Record<string, unknown>, path: IssuePath, sink: IssueSink): void {
  if (typeof obj._type !== 'string' || obj._type === '') {
    report(sink, [...path, '_type'], 'required', '_type must be a non-empty string');
  }
  if (obj._key !== undefined && typeof obj._key !== 'string') {
    report(sink, [...path, '_key'], 'invalid_type', '_key must be a string');
  }
}

function checkObjectList(list: unknown, path: IssuePath, sink: IssueSink, what: string, each?: ObjectVisitor): void {
  if (!Array.isArray(list)) {
    report(sink, path, 'invalid_type', `expected an array of ${what}, got ${kindOf(list)}`);
    return;
  }
  list.forEach((item, i) => {
    if (!isPlainObject(item)) {
      report(sink, [...path, i], 'invalid_type', `expected an object with _type, got ${kindOf(item)}`);
      return;
    }
    checkTyped(item, [...path, i], sink);
    each?.(item, [...path, i]);
  });
}

function checkSpan(child: Record<string, unknown>, path: IssuePath, sink: IssueSink): void {
  if (child._type !== 'span') return;
  if (typeof child.text !== 'string') report(sink, [...path, 'text'], 'invalid_type', 'a span needs a text string');
  const marks = child.marks;
  if (marks !== undefined && !(Array.isArray(marks) && marks.every((m) => typeof m === 'string'))) {
    report(sink, [...path, 'marks'], 'invalid_type', 'marks must be an array of strings');
  }
}

/** The standard text block: children (spans and inline objects), optional markDefs, style and list data. */
function checkTextBlock(block: Record<string, unknown>, path: IssuePath, sink: IssueSink): void {
  checkObjectList(block.children, [...path, 'children'], sink, 'children', (child, p) => checkSpan(child, p, sink));
  if (block.markDefs !== undefined) checkObjectList(block.markDefs, [...path, 'markDefs'], sink, 'mark definitions');
  for (const key of ['style', 'listItem'] as const) {
    if (block[key] !== undefined && typeof block[key] !== 'string') {
      report(sink, [...path, key], 'invalid_type', `${key} must be a string`);
    }
  }
  const level = block.level;
  if (level !== undefined && (typeof level !== 'number' || !Number.isSafeInteger(level) || level < 1)) {
    report(sink, [...path, 'level'], 'invalid_type', 'level must be a positive integer');
  }
}

/**
 * Portable Text: an array of typed blocks. Custom block types (plugins add them) are only
 * required to be typed objects. Every `href` anywhere in the value, not only in link mark
 * definitions, must pass the url rules: a custom link block is as clickable as a link mark.
 */
export const checkPortableText: ValueChecker = (_field, value, path, ctx) => {
  if (!Array.isArray(value)) {
    typeIssue(ctx, path, 'an array of Portable Text blocks', value);
    return value;
  }
  const hrefCheck: ObjectVisitor = (obj, p) => {
    if (!Object.hasOwn(obj, 'href')) return;
    const href = obj.href;
    if (typeof href !== 'string') {
      report(ctx.sink, [...p, 'href'], 'invalid_type', 'href must be a string');
      return;
    }
    const problem = checkUrl(href, { allowSchemeless: ctx.options.allowSchemelessUrls });
    if (problem) report(ctx.sink, [...p, 'href'], 'invalid_url', problem);
  };
  walkJson(value, path, ctx.sink, hrefCheck);
  checkObjectList(value, path, ctx.sink, 'blocks', (block, p) => {
    if (block._type === 'block') checkTextBlock(block, p, ctx.sink);
  });
  return value;
};
