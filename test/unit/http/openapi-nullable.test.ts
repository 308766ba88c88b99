import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { generateDocument31 } from '../../../src/http/openapi.js';
import { testCms } from '../../helpers/cms.js';

type Doc = { components: { schemas: Record<string, any> } };

/** Does this schema (resolved against the document's components) accept the value? */
function accepts(doc: Doc, schema: unknown, value: unknown): boolean {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  return ajv.validate(rewritten, value) as boolean;
}

const NULL_OF_REF = { anyOf: [{ $ref: '#/components/schemas/Point' }, { type: 'null' }] };

describe('the OpenAPI generator and nullable named schemas', () => {
  it('writes a nullable named schema as anyOf [$ref, null] wherever it appears, and leaves the component as it is', () => {
    const Point = z.object({ x: z.number() }).openapi('Point');
    const Both = z
      .union([z.string(), z.number()])
      .nullable()
      .openapi('Both', { description: 'A named schema that takes null itself' });
    // The nullable uses come first: met before Point itself, one of them used to become the component.
    const Shape = z
      .object({
        plain: Point.nullable(),
        optional: Point.nullable().optional(),
        described: Point.nullable().openapi({ description: 'Where it is' }),
        describedOptional: Point.nullable().optional().openapi({ description: 'Maybe where it is' }),
        nullish: Point.nullish(),
        items: z.array(Point.nullable()),
        member: z.union([z.string(), Point.nullable()]),
        own: Both,
        ownNullable: Both.nullable(),
        point: Point,
      })
      .openapi('Shape');
    const api = new OpenAPIHono();
    api.openapi(
      createRoute({
        method: 'post',
        path: '/shapes',
        request: { body: { content: { 'application/json': { schema: Point.nullable() } } } },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: Shape } } } },
      }),
      (c) => c.json({} as never),
    );
    const doc = generateDocument31(api.openAPIRegistry.definitions, {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
    }) as Doc & { paths: Record<string, any> };
    const s = doc.components.schemas;
    const props = s.Shape.properties;

    expect(s.Point.type).toBe('object');
    expect(accepts(doc, { $ref: '#/components/schemas/Point' }, null)).toBe(false);
    expect(props.plain).toEqual(NULL_OF_REF);
    expect(props.optional).toEqual(NULL_OF_REF);
    expect(props.nullish).toEqual(NULL_OF_REF);
    expect(props.described).toEqual({ ...NULL_OF_REF, description: 'Where it is' });
    expect(props.describedOptional).toEqual({ ...NULL_OF_REF, description: 'Maybe where it is' });
    expect(props.items).toEqual({ type: 'array', items: NULL_OF_REF });
    expect(props.member.anyOf).toEqual(expect.arrayContaining([{ $ref: '#/components/schemas/Point' }]));
    expect(props.point).toEqual({ $ref: '#/components/schemas/Point' });
    expect(s.Shape.required).toEqual(expect.arrayContaining(['plain', 'described', 'items', 'point']));
    expect(s.Shape.required).not.toContain('optional');
    // A named schema that takes null itself keeps its own component and a plain reference.
    expect(props.own).toEqual({ $ref: '#/components/schemas/Both' });
    expect(accepts(doc, props.ownNullable, null)).toBe(true);
    expect(accepts(doc, s.Both, null)).toBe(true);
    const body = doc.paths['/shapes'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual(NULL_OF_REF);

    for (const name of ['plain', 'optional', 'nullish', 'described', 'describedOptional', 'member']) {
      expect(accepts(doc, props[name], null), name).toBe(true);
      expect(accepts(doc, props[name], { x: 1 }), name).toBe(true);
      expect(accepts(doc, props[name], { x: 'no' }), name).toBe(false);
    }
    expect(accepts(doc, props.items, [null, { x: 2 }])).toBe(true);
    expect(accepts(doc, props.point, null)).toBe(false);
  });

  it('documents the null the service sends for a media item’s focal point, an entry’s byline and a menu item’s target', async () => {
    const cms = await testCms('sqlite');
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as Doc;
    const s = doc.components.schemas;
    for (const [schema, prop, named] of [
      ['MediaItem', 'focalPoint', 'FocalPoint'],
      ['UpdateMediaRequest', 'focalPoint', 'FocalPoint'],
      ['ContentItem', 'byline', 'Byline'],
      ['MenuItem', 'target', 'MenuTarget'],
    ]) {
      const property = s[schema].properties[prop];
      expect(property.anyOf, `${schema}.${prop}`).toEqual([
        { $ref: `#/components/schemas/${named}` },
        { type: 'null' },
      ]);
      expect(accepts(doc, property, null), `${schema}.${prop}`).toBe(true);
      // The named component itself stays non-null: other uses of it do not take null.
      expect(accepts(doc, { $ref: `#/components/schemas/${named}` }, null), named).toBe(false);
    }
    expect(s.MediaItem.required).toContain('focalPoint');
    expect(s.ContentItem.required).toContain('byline');
  });
});
