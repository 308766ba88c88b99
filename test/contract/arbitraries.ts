import fc from 'fast-check';

/** A JSON Schema node as the OpenAPI document (3.1) and the MCP tool list give it. */
export type Schema = Record<string, any>;

/**
 * A value the JSON text writer turns into raw JSON number text beyond double range (1e309),
 * which `JSON.stringify` cannot write itself.
 */
export const HUGE = '\u0001HUGE\u0001';
/** A value standing for the ID of a seeded row of the given kind, resolved per database. */
export const SEEDED = '\u0001SEED:';

export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replaceAll(JSON.stringify(HUGE), '1e309');
}

export function resolver(doc: Schema) {
  return function resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let i = 0; i < 20 && typeof s.$ref === 'string'; i++) {
      const path = (s.$ref as string).replace(/^#\//, '').split('/');
      let node: any = doc;
      for (const part of path) node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
      s = node ?? {};
    }
    return s;
  };
}

const WEIRD_STRINGS = ['', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '../..', '%00', '1e309', '-1', 'null', '💥'];

function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === 'string') return [s.type];
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (s.format === 'date') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? Math.min(s.maxLength, min + 24) : min + 24;
  if (typeof s.pattern === 'string') {
    try {
      const re = new RegExp(s.pattern, 'u');
      return fc
        .stringMatching(re)
        .filter((v) => v.length >= min && (s.maxLength === undefined || v.length <= s.maxLength));
    } catch {
      // an ECMAScript-incompatible pattern: plain strings below
    }
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo =
    typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -1000;
  const hi =
    typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : 1000;
  if (integer) {
    const a = Math.ceil(Math.max(lo, Number.MIN_SAFE_INTEGER));
    const b = Math.floor(Math.min(hi, Number.MAX_SAFE_INTEGER));
    return b >= a ? fc.integer({ min: a, max: b }) : fc.constant(a);
  }
  return fc.double({ min: lo, max: Math.max(lo, hi), noNaN: true, noDefaultInfinity: true });
}

/**
 * Values the schema accepts (best effort: patterns, formats and limits are followed; what the
 * schema only states in prose is not). `seeded` maps a property name to a seeded-row kind: such
 * properties get a seeded ID part of the time so handlers go past the lookup.
 */
export function validArb(
  resolve: (s: Schema | undefined) => Schema,
  schema: Schema | undefined,
  seeded: (name: string) => string | undefined,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  const union = s.oneOf ?? s.anyOf;
  if (Array.isArray(union) && union.length) {
    return fc.oneof(...union.map((u: Schema) => validArb(resolve, u, seeded, depth + 1)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length) {
    const merged: Schema = {};
    for (const part of s.allOf) {
      const r = resolve(part);
      Object.assign(merged, r, {
        properties: { ...merged.properties, ...r.properties },
        required: [...(merged.required ?? []), ...(r.required ?? [])],
      });
    }
    return validArb(resolve, merged, seeded, depth);
  }
  const types = typesOf(s);
  if (!types.length) return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'string':
          return stringArb(s);
        case 'integer':
          return numberArb(s, true);
        case 'number':
          return numberArb(s, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          if (depth > 4) return fc.constant([]);
          const minLength = s.minItems ?? 0;
          const maxLength = Math.min(s.maxItems ?? minLength + 3, minLength + 3);
          return fc.array(validArb(resolve, s.items, seeded, depth + 1), { minLength, maxLength });
        }
        default:
          return objectArb(resolve, s, seeded, depth);
      }
    }),
  );
}

function objectArb(
  resolve: (s: Schema | undefined) => Schema,
  s: Schema,
  seeded: (name: string) => string | undefined,
  depth: number,
): fc.Arbitrary<unknown> {
  const props: Record<string, Schema> = s.properties ?? {};
  const required = new Set<string>(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(props)) {
    const kind = seeded(name);
    const plain = depth > 5 ? fc.constant(null) : validArb(resolve, sub, seeded, depth + 1);
    model[name] = kind ? fc.oneof({ arbitrary: fc.constant(SEEDED + kind), weight: 2 }, plain) : plain;
  }
  const ap = s.additionalProperties;
  const extra =
    ap && typeof ap === 'object' && depth < 4
      ? fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), validArb(resolve, ap, seeded, depth + 1), {
          maxKeys: 2,
        })
      : fc.constant({});
  return fc
    .tuple(fc.record(model, { requiredKeys: [...required].filter((k) => k in model) }), extra)
    .map(([a, b]) => ({ ...b, ...a }));
}

/** Values around the schema that it refuses (or that probe the edges of what it accepts). */
export function invalidArb(
  resolve: (s: Schema | undefined) => Schema,
  schema: Schema | undefined,
  seeded: (name: string) => string | undefined,
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const valid = validArb(resolve, s, seeded);
  const deep = fc.integer({ min: 50, max: 400 }).map((n) => {
    let v: unknown = 1;
    for (let i = 0; i < n; i++) v = { a: v };
    return v;
  });
  const wrongType = fc.constantFrom<unknown>(null, true, 0, -1, 1.5, 'x', [], {}, [[]], HUGE);
  const weird = fc.constantFrom<unknown>(...WEIRD_STRINGS, HUGE, -0, 1e300, -1e300, 2 ** 53 + 1, 0.5);
  const objectMutations =
    typesOf(s).includes('object') || s.properties
      ? [
          // an unknown key
          valid.map((v) => (v && typeof v === 'object' ? { ...(v as object), zzUnknown: 1 } : v)),
          // one property replaced by something odd
          fc.tuple(valid, fc.oneof(wrongType, weird, deep), fc.nat()).map(([v, odd, i]) => {
            if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
            const keys = Object.keys(s.properties ?? {});
            if (!keys.length) return v;
            return { ...(v as object), [keys[i % keys.length]]: odd };
          }),
          // a required property left out
          valid.map((v) => {
            if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
            const req: string[] = s.required ?? [];
            if (!req.length) return v;
            const copy = { ...(v as Record<string, unknown>) };
            delete copy[req[0]];
            return copy;
          }),
        ]
      : [];
  return fc.oneof(wrongType, weird, deep, ...objectMutations);
}

/** Query or path parameter values: valid ones, and odd strings. */
export function paramArb(
  resolve: (s: Schema | undefined) => Schema,
  schema: Schema | undefined,
  seeded: string | undefined,
): fc.Arbitrary<string> {
  const s = resolve(schema);
  const valid = validArb(resolve, s, () => undefined).map((v) =>
    typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : JSON.stringify(v),
  );
  const odd = fc.constantFrom(
    ...WEIRD_STRINGS,
    '1e309',
    '-1e309',
    '9'.repeat(400),
    'eyJ4IjoxfQ',
    '!!!',
    'a'.repeat(2000),
  );
  const arbs: Array<{ arbitrary: fc.Arbitrary<string>; weight: number }> = [
    { arbitrary: valid, weight: 4 },
    { arbitrary: odd, weight: 2 },
  ];
  if (seeded) arbs.push({ arbitrary: fc.constant(SEEDED + seeded), weight: 5 });
  return fc.oneof(...arbs);
}

/** A path parameter: never empty (an empty segment addresses another route, not this operation). */
export function pathParamArb(
  resolve: (s: Schema | undefined) => Schema,
  schema: Schema | undefined,
  seeded: string | undefined,
): fc.Arbitrary<string> {
  return paramArb(resolve, schema, seeded).map((v) => (v === '' ? '_' : v));
}
