/**
 * Contract fuzzing from the OpenAPI document and the MCP tool list (issue 38): for every documented
 * operation and every tool, inputs generated from the documented schemas (valid ones and invalid
 * ones around them) as anonymous, every role and a narrow token scope. Every answer must be below
 * 500, an error must carry the envelope and a code, its status must be one the document lists for the
 * operation, and every 2xx body must validate against the documented response schema; every
 * successful result of a tool that declares an output schema must carry structuredContent that
 * validates against it. The same generated case must get the same status on SQLite and PostgreSQL.
 *
 * FUZZ_SEED (default 38) and FUZZ_RUNS (cases per operation and per tool, default 20) make a run
 * reproducible; the long variant is e.g. `FUZZ_RUNS=150 npx vitest run test/contract/fuzz.test.ts`.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import type { DialectName } from '../../src/db/dialect.js';
import { type TestCms, testCms } from '../helpers/cms.js';
import { createEntry, postsCollection } from '../helpers/content.js';
import { describeEachDialect, postgresAvailable } from '../helpers/db.js';
import { mcpClient, serve, type ToolResult } from '../helpers/mcp.js';
import {
  HUGE,
  invalidArb,
  paramArb,
  pathParamArb,
  resolver,
  type Schema,
  SEEDED,
  toJsonText,
  validArb,
} from './arbitraries.js';

const SEED = Number(process.env.FUZZ_SEED ?? 38);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const ACTORS = ['anonymous', 'admin', 'editor', 'author', 'contributor', 'subscriber', 'narrow'] as const;
type ActorName = (typeof ACTORS)[number];

interface Case {
  opKey: string;
  actor: ActorName;
  method: string;
  path: string;
  query: Record<string, string>;
  body?: { text: string; type: string };
}

interface Finding {
  op: string;
  kind: string;
  request: string;
  answer: string;
}

/** Status per case key, per database, for the cross-database comparison. */
const statuses: Record<string, Map<string, number>> = {};
const findingsByDb: Record<string, Finding[]> = {};

/** Which seeded row a parameter or property of this name points at. */
function seedKind(name: string, path: string): string | undefined {
  if (name === 'collection') return 'collection';
  if (name === 'slug' && path.startsWith('/schema/collections')) return 'collection';
  if (name === 'field' || name === 'fieldSlug') return 'field';
  if (name === 'contentId' || name === 'entryId') return 'entry';
  if (name === 'revisionId') return 'revision';
  if (name === 'taxonomy' || (name === 'name' && path.startsWith('/taxonomies'))) return 'taxonomy';
  if (name === 'name' && path.startsWith('/menus')) return 'menu';
  if (name === 'menu') return 'menu';
  if (name === 'locale') return 'locale';
  if (name === 'section' || (name === 'slug' && path.startsWith('/sections'))) return 'section';
  if (name === 'name' && path.startsWith('/widget-areas')) return 'widgetArea';
  if (name === 'termId' || (name === 'slug' && path.startsWith('/taxonomies'))) return 'term';
  if (name === 'userId') return 'user';
  if (name === 'id') {
    if (path.startsWith('/widget-areas')) return 'widget';
    if (path.startsWith('/users') || path.startsWith('/admin/users')) return 'user';
    if (path.startsWith('/content') || path.startsWith('/seo') || path.startsWith('/revisions')) return 'entry';
  }
  return undefined;
}

/**
 * Query parameters whose documented type is a plain string but whose content is a small language
 * (sort keys, JSON filters, cursors): odd values of that language as well.
 */
const QUERY_HINTS: Record<string, fc.Arbitrary<string>> = {
  orderBy: fc.constantFrom('', ' ', 'title', 'views', 'rank', '-views', 'nope', 'views,title'),
  fieldFilters: fc.constantFrom(
    '{"views":1e309}',
    '{"rank":{"gte":1e309}}',
    '{"views":{"lt":-1e309}}',
    '{"views":{"gte":"x"}}',
    '{"rank":1e300}',
    '{"views":99999999999999999999}',
    '{"title":""}',
    '{"title":{"in":[]}}',
    '{"nope":1}',
    '[]',
    '{"views":{"gte":{"a":1}}}',
  ),
  cursor: fc.constantFrom(
    `${SEEDED}cursor`,
    Buffer.from('[1e309,"x"]').toString('base64url'),
    Buffer.from('[99999999999999999999,"01ARZ3NDEKTSV4RRFFQ69G5FAV"]').toString('base64url'),
    Buffer.from('[1e300,"01ARZ3NDEKTSV4RRFFQ69G5FAV"]').toString('base64url'),
    Buffer.from('["2020-01-01T00:00:00.000Z","01ARZ3NDEKTSV4RRFFQ69G5FAV"]').toString('base64url'),
    Buffer.from('[{"a":1},"x"]').toString('base64url'),
    Buffer.from('[null,null]').toString('base64url'),
    Buffer.from('["\\u0000","x"]').toString('base64url'),
    '',
  ),
};

function draw<T>(arb: fc.Arbitrary<T>, seed: number, n: number): T[] {
  return fc.sample(arb, { seed, numRuns: n });
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Generate the cases of one operation from the document alone (the same cases on every database). */
function casesFor(doc: Schema, path: string, method: string, op: Schema): Case[] {
  const resolve = resolver(doc);
  const opKey = `${method.toUpperCase()} ${path}`;
  const params: Schema[] = (op.parameters ?? []).map((p: Schema) => resolve(p));
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const content: Record<string, Schema> = resolve(op.requestBody)?.content ?? {};
  const jsonBody = content['application/json']?.schema;
  const binary = Object.keys(content).find((t) => t !== 'application/json');
  const seeded = (name: string) => seedKind(name, path);

  const pathArb = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, pathParamArb(resolve, p.schema, seedKind(p.name, path))])),
  );
  // Deep cases: every path parameter that names a seeded row gets one, so the handler goes past its lookups.
  const deepPathArb = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const kind = seedKind(p.name, path);
        return [p.name, kind ? fc.constant(SEEDED + kind) : pathParamArb(resolve, p.schema, undefined)];
      }),
    ),
  );
  const queryArb = fc.record(
    Object.fromEntries(
      queryParams.map((p) => {
        const plain = paramArb(resolve, p.schema, undefined);
        const hint = QUERY_HINTS[p.name];
        return [p.name, hint ? fc.oneof(plain, hint) : plain];
      }),
    ),
    { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) as never[] },
  );
  const bodyArb: fc.Arbitrary<Case['body']> = jsonBody
    ? fc.oneof(
        {
          arbitrary: validArb(resolve, jsonBody, seeded).map((v) => ({
            text: toJsonText(v),
            type: 'application/json',
          })),
          weight: 3,
        },
        {
          arbitrary: invalidArb(resolve, jsonBody, seeded).map((v) => ({
            text: toJsonText(v),
            type: 'application/json',
          })),
          weight: 3,
        },
        fc.constantFrom(
          { text: '{"a":', type: 'application/json' },
          { text: '', type: 'application/json' },
          { text: 'a=1', type: 'application/x-www-form-urlencoded' },
          { text: '{}', type: 'text/plain' },
        ),
      )
    : binary
      ? fc.constantFrom(
          { text: 'hello', type: binary },
          { text: '{"name":"x.png"}', type: 'application/json' },
          { text: '', type: binary },
          { text: 'x', type: 'text/plain' },
        )
      : fc.constant(undefined);
  const wild = fc.record({ actor: fc.constantFrom(...ACTORS), p: pathArb, q: queryArb, body: bodyArb });
  // Deep cases: the required query parameters and one other (often an odd one), so the rest of the request passes.
  const absent = '\u0003';
  const deepQueryArb = fc
    .tuple(
      fc.record(
        Object.fromEntries(
          queryParams.map((p) => [
            p.name,
            fc.oneof(
              { arbitrary: fc.constant(absent), weight: p.required ? 0 : 1 },
              {
                arbitrary: validArb(resolve, p.schema, () => undefined).map((v) =>
                  typeof v === 'string' ? v : JSON.stringify(v),
                ),
                weight: p.required ? 1 : 0,
              },
            ),
          ]),
        ),
      ),
      // Half of the time the odd parameter is one with a language of its own (orderBy, fieldFilters, cursor).
      queryParams.length
        ? fc.oneof(
            fc.nat({ max: queryParams.length }),
            fc.constantFrom(...queryParams.map((p, i) => (QUERY_HINTS[p.name] ? i : queryParams.length))),
          )
        : fc.constant(0),
      fc.nat(),
    )
    .chain(([base, pick, salt]) => {
      const target = queryParams[pick];
      const q = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== absent)) as Record<string, string>;
      if (!target) return fc.constant(q);
      const hint = QUERY_HINTS[target.name];
      const odd = hint && salt % 3 !== 0 ? hint : paramArb(resolve, target.schema, undefined);
      return odd.map((v) => ({ ...q, [target.name]: v }));
    });
  const deepBodyArb: fc.Arbitrary<Case['body']> = jsonBody
    ? fc.oneof(
        validArb(resolve, jsonBody, seeded).map((v) => ({ text: toJsonText(v), type: 'application/json' })),
        invalidArb(resolve, jsonBody, seeded).map((v) => ({ text: toJsonText(v), type: 'application/json' })),
      )
    : bodyArb;
  const deep = fc.record({
    actor: fc.constantFrom<ActorName>('admin', 'admin', 'editor', 'author', 'contributor', 'narrow'),
    p: deepPathArb,
    q: deepQueryArb,
    body: deepBodyArb,
  });
  return draw(fc.oneof(wild, deep), SEED ^ hash(opKey), RUNS).map(({ actor, p, q, body }) => ({
    opKey,
    actor,
    method: method.toUpperCase(),
    path: path.replace(/\{(\w+)\}/g, (_, name) => encodePart(String((p as Record<string, string>)[name]))),
    query: q as Record<string, string>,
    body,
  }));
}

/** Percent-encoding that also writes a lone surrogate (as the malformed UTF-8 bytes a client could send). */
function encodePart(value: string): string {
  return value
    .replace(/[\ud800-\udfff]/g, '\u0002')
    .split('\u0002')
    .map(encodeURIComponent)
    .join('%ED%A0%80');
}

function dbOrder(method: string): number {
  return method === 'delete' ? 2 : method === 'get' ? 0 : 1;
}

describeEachDialect('contract fuzzing from the OpenAPI document', (dialect: DialectName) => {
  it('answers every generated request within the document', { timeout: 240_000 }, async () => {
    const cms: TestCms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'rank', label: 'Rank', type: 'number', indexed: true }] });
    const entries = [];
    for (let i = 0; i < 3; i++) entries.push((await createEntry(cms, { data: { title: `Post ${i}`, views: i } })).item);
    const tokens: Record<ActorName, string | null> = {
      anonymous: null,
      admin: cms.adminToken,
      editor: (await cms.userToken(ROLES.EDITOR)).token,
      author: (await cms.userToken(ROLES.AUTHOR)).token,
      contributor: (await cms.userToken(ROLES.CONTRIBUTOR)).token,
      subscriber: (await cms.userToken(ROLES.SUBSCRIBER)).token,
      narrow: (await cms.userToken(ROLES.EDITOR, ['content:read'])).token,
    };
    const seeds: Record<string, string[]> = {
      collection: ['posts'],
      field: ['title', 'views', 'rank'],
      entry: entries.map((e) => e.id),
      user: [cms.adminId],
      taxonomy: ['tags'],
      term: ['news'],
      menu: ['main'],
      section: ['about'],
      locale: cms.config.i18n.locales,
      widgetArea: ['sidebar'],
      revision: ['none'],
    };
    const admin = (method: string, path: string, body?: unknown) =>
      cms.app.request(`/_cms/api${path}`, {
        method,
        headers: { authorization: `Bearer ${cms.adminToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await admin('POST', '/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] })).status).toBe(
      201,
    );
    expect((await admin('POST', '/taxonomies/tags/terms', { label: 'News', slug: 'news' })).status).toBe(201);
    expect((await admin('POST', '/menus', { name: 'main', label: 'Main' })).status).toBe(201);
    // Widgets name a menu, a section, a taxonomy or a collection: all seeded, so valid settings of every type are accepted.
    expect((await admin('POST', '/sections', { slug: 'about', title: 'About' })).status).toBe(201);
    expect((await admin('POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar' })).status).toBe(201);
    const widget = await admin('POST', '/widget-areas/sidebar/widgets', { type: 'menu', settings: { menu: 'main' } });
    expect(widget.status).toBe(201);
    seeds.widget = [((await widget.json()) as Schema).data.id];
    const revisions = (await (await admin('GET', `/content/posts/${entries[0].id}/revisions`)).json()) as Schema;
    seeds.revision = (revisions.data?.items ?? []).map((r: Schema) => r.id);
    if (!seeds.revision.length) seeds.revision = ['none'];
    const page = await cms.app.request('/_cms/api/content/posts?limit=1&orderBy=views', {
      headers: { authorization: `Bearer ${cms.adminToken}` },
    });
    seeds.cursor = [((await page.json()) as Schema).data?.nextCursor ?? 'none'];
    // The marker as a path or query writes it (raw or percent-encoded) and as JSON text writes it (`\u0001`).
    const fill = (text: string, salt: number): string =>
      text.replace(new RegExp(`(?:${'\u0001'}|%01|\\\\u0001)SEED(?::|%3A)(\\w+)`, 'g'), (_, kind: string) => {
        const pool = seeds[kind] ?? ['none'];
        return pool[salt % pool.length];
      });

    const docRes = await cms.app.request('/_cms/api/openapi.json');
    expect(docRes.status).toBe(200);
    const doc = (await docRes.json()) as Schema;
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const rewrite = (s: unknown): unknown =>
      JSON.parse(JSON.stringify(s).replaceAll('"#/components/', '"doc#/components/'));

    const findings: Finding[] = [];
    const seen = new Map<string, number>();
    const ops: Array<[string, string, Schema]> = [];
    for (const [path, item] of Object.entries<Schema>(doc.paths)) {
      for (const [method, op] of Object.entries<Schema>(item)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) ops.push([path, method, op]);
      }
    }
    ops.sort((a, b) => dbOrder(a[1]) - dbOrder(b[1]));
    let requests = 0;
    let restBodies = 0;
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    // Reads first, then writes; the deletes come last, after the MCP tools, so those find the seeded rows.
    const runRest = async (list: typeof ops) => {
      for (const [path, method, op] of list) {
        const cases = casesFor(doc, path, method, op);
        for (const [i, c] of cases.entries()) {
          const url = new URL(`http://cms.test/_cms/api${fill(c.path, i)}`);
          for (const [k, v] of Object.entries(c.query)) url.searchParams.set(k, fill(v, i));
          const headers: Record<string, string> = {};
          const token = tokens[c.actor];
          if (token) headers.authorization = `Bearer ${token}`;
          if (c.body) headers['content-type'] = c.body.type;
          const bodyText = c.body ? fill(c.body.text, i) : undefined;
          const res = await cms.app.request(url.pathname + url.search, { method: c.method, headers, body: bodyText });
          requests++;
          const text = await res.text();
          const caseKey = `${c.opKey}#${i}`;
          seen.set(caseKey, res.status);
          if (process.env.FUZZ_VERBOSE === '2')
            console.log(`${res.status}\t${c.opKey}\t${c.actor}\t${url.pathname}${url.search}\t${text.slice(0, 160)}`);
          const request = `${c.method} ${url.pathname}${url.search} as ${c.actor}${c.body ? ` [${c.body.type}] ${bodyText?.slice(0, 300)}` : ''}`;
          const answer = `${res.status} ${text.slice(0, 400)}`;
          const report = (kind: string) => findings.push({ op: c.opKey, kind, request, answer });
          let json: Schema | undefined;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          const documented = Object.keys(op.responses ?? {});
          if (res.status >= 500) report('5xx');
          else if (!documented.includes(String(res.status)))
            report(`undocumented ${res.status} ${json?.error?.code ?? ''}`);
          if (res.status >= 400) {
            if (json?.success !== false || typeof json.error?.code !== 'string') report('no error envelope');
            else if (res.status < 500 && documented.includes(String(res.status))) {
              // The code must be one the document names for that status: descriptions list codes as `(CODE, …)`.
              const description = String(op.responses?.[String(res.status)]?.description ?? '');
              if (!new RegExp(`\\b${json.error.code}\\b`).test(description))
                report(`undocumented code ${res.status} ${json.error.code}`);
            }
          } else if (res.status < 300) {
            const declared = op.responses?.[String(res.status)]?.content ?? {};
            const ct = (res.headers.get('content-type') ?? '').split(';')[0];
            const schema = declared[ct]?.schema;
            if (!schema) {
              if (Object.keys(declared).length && !declared[ct]) report(`success media type ${ct} undocumented`);
            } else if (ct === 'application/json') {
              const key = `${c.opKey} ${res.status}`;
              let validate = validators.get(key);
              if (!validate) {
                validate = ajv.compile(rewrite(schema) as object);
                validators.set(key, validate);
              }
              restBodies++;
              if (!validate(json)) report(`success body off the document: ${ajv.errorsText(validate.errors)}`);
            }
          }
        }
      }
    };

    // MCP: every tool from tools/list, with arguments from its input schema.
    const base = await serve(cms);
    const mcps = {
      admin: await mcpClient(base, tokens.admin!),
      narrow: await mcpClient(base, tokens.narrow!),
    };
    const { tools } = await mcps.admin.client.listTools();
    // Output schemas are JSON Schema 2020-12 (zod's toJSONSchema), validated as the REST bodies are.
    const outputAjv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    const outputValidators = new Map<string, ReturnType<typeof outputAjv.compile>>();
    let mcpResults = 0;
    // Read-only tools first, then writes, then destructive ones.
    const toolOrder = (t: (typeof tools)[number]) =>
      t.annotations?.readOnlyHint ? 0 : t.annotations?.destructiveHint ? 2 : 1;
    const runMcp = async () => {
      for (const tool of [...tools].sort((a, b) => toolOrder(a) - toolOrder(b))) {
        const resolve = resolver({});
        const seeded = (name: string) => seedKind(name, '/content');
        const arb = fc.record({
          who: fc.constantFrom<'admin' | 'narrow'>('admin', 'admin', 'narrow'),
          args: fc.oneof(
            validArb(resolve, tool.inputSchema as Schema, seeded),
            invalidArb(resolve, tool.inputSchema as Schema, seeded),
          ),
        });
        for (const [i, { who, args }] of draw(arb, SEED ^ hash(tool.name), RUNS).entries()) {
          // The SDK writes the JSON itself: a number beyond double range goes as the largest double.
          const text = fill(JSON.stringify(args ?? {}), i);
          const parsed = JSON.parse(text, (_, v) => (v === HUGE ? Number.MAX_VALUE : v));
          const sent = typeof parsed === 'object' && parsed && !Array.isArray(parsed) ? parsed : { value: parsed };
          const request = `MCP ${tool.name} as ${who} ${text.slice(0, 300)}`;
          const caseKey = `MCP ${tool.name}#${i}`;
          requests++;
          try {
            // The raw result: the SDK client's own output check would throw it away as an invalid-params error.
            const out = (await mcps[who].client.request(
              { method: 'tools/call', params: { name: tool.name, arguments: sent } },
              CallToolResultSchema,
            )) as ToolResult;
            seen.set(caseKey, out.isError ? 1 : 0);
            if (out.isError && (out._meta?.code === 'INTERNAL_ERROR' || !out._meta?.code)) {
              findings.push({
                op: tool.name,
                kind: `mcp ${out._meta?.code ?? 'no code'}`,
                request,
                answer: JSON.stringify(out).slice(0, 400),
              });
            }
            if (!out.isError && tool.outputSchema) {
              // A successful result of a tool that declares an output schema carries structuredContent of that schema.
              mcpResults++;
              const answer = JSON.stringify(out.structuredContent ?? out.content).slice(0, 400);
              let validate = outputValidators.get(tool.name);
              if (!validate) {
                validate = outputAjv.compile(tool.outputSchema);
                outputValidators.set(tool.name, validate);
              }
              if (!out.structuredContent || typeof out.structuredContent !== 'object') {
                findings.push({ op: tool.name, kind: 'mcp result without structuredContent', request, answer });
              } else if (!validate(out.structuredContent)) {
                findings.push({
                  op: tool.name,
                  kind: `mcp structuredContent off the output schema: ${outputAjv.errorsText(validate.errors)}`,
                  request,
                  answer,
                });
              }
            }
          } catch (err) {
            const code = (err as { code?: number }).code;
            seen.set(caseKey, code ?? -1);
            if (code !== -32602)
              findings.push({
                op: tool.name,
                kind: `mcp protocol error ${code}`,
                request,
                answer: String(err).slice(0, 400),
              });
          }
        }
      }
    };
    await runRest(ops.filter(([, method]) => method !== 'delete'));
    await runMcp();
    await runRest(ops.filter(([, method]) => method === 'delete'));
    await mcps.admin.close();
    await mcps.narrow.close();

    statuses[dialect] = seen;
    findingsByDb[dialect] = findings;
    const byOp = new Map<string, number>();
    for (const f of findings) {
      const k = `${f.kind.split(':')[0]} @ ${f.op}`;
      byOp.set(k, (byOp.get(k) ?? 0) + 1);
    }
    if (process.env.FUZZ_VERBOSE) console.log([...byOp].map(([k, n]) => `${n}\t${k}`).join('\n'));
    const kinds = new Map<string, number>();
    for (const f of findings) kinds.set(f.kind.split(':')[0], (kinds.get(f.kind.split(':')[0]) ?? 0) + 1);
    console.log(
      `[fuzz ${dialect}] seed ${SEED}, ${RUNS} runs: ${ops.length} operations, ${tools.length} tools (${tools.filter((t) => t.outputSchema).length} with an output schema), ${requests} requests, ${restBodies} REST success bodies and ${mcpResults} MCP results checked against their schemas, ${findings.length} findings`,
      Object.fromEntries(kinds),
    );
    expect(
      findings.slice(0, 40).map((f) => `${f.kind}\n    request: ${f.request}\n    answer:  ${f.answer}`),
      `${findings.length} findings`,
    ).toEqual([]);
  });
});

afterAll(() => {
  if (!postgresAvailable || !statuses.sqlite || !statuses.postgres) return;
  const differ: string[] = [];
  for (const [key, status] of statuses.sqlite) {
    const other = statuses.postgres.get(key);
    if (other !== undefined && other !== status) differ.push(`${key}: sqlite ${status}, postgres ${other}`);
  }
  console.log(`[fuzz] ${differ.length} cases answered differently on the two databases`);
  expect(differ.slice(0, 40)).toEqual([]);
});

export { HUGE };
