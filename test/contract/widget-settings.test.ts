/**
 * Widget settings in the OpenAPI document are one schema per widget type, built from the rules the
 * widget service applies (WIDGET_SETTINGS): the document's request bodies and the door's validator
 * agree, and the contract fuzzer's generator makes settings of every type that the service accepts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WidgetCreateBody, WidgetUpdateBody } from '../../src/schemas/widgets.js';
import { WIDGET_SETTINGS, WIDGET_TYPES } from '../../src/services/widgets/types.js';
import { call, testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { resolver, type Schema, validArb } from './arbitraries.js';

const pascal = (t: string) => `${t[0].toUpperCase()}${t.slice(1)}`;
const NAMES: Record<string, string> = { menu: 'main', section: 'about', taxonomy: 'tags', collection: 'posts' };
const seeded = (name: string) => (name in NAMES ? name : undefined);
const fill = (value: unknown) =>
  JSON.parse(JSON.stringify(value).replace(/\\u0001SEED:(\w+)/g, (_, kind: string) => NAMES[kind]));

describe('widget settings in the OpenAPI document', () => {
  it('are a union discriminated by type, each settings component the service rules for that type', async () => {
    const cms = await testCms('sqlite');
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as Schema;
    const s = doc.components.schemas;
    for (const [union, option] of [
      ['Widget', (t: string) => `${pascal(t)}Widget`],
      ['CreateWidgetRequest', (t: string) => `Create${pascal(t)}WidgetRequest`],
    ] as const) {
      expect(s[union].discriminator.propertyName, union).toBe('type');
      expect(s[union].discriminator.mapping, union).toEqual(
        Object.fromEntries(WIDGET_TYPES.map((t) => [t, `#/components/schemas/${option(t)}`])),
      );
      for (const t of WIDGET_TYPES) {
        expect(s[option(t)].properties.type.enum, option(t)).toEqual([t]);
        expect(s[option(t)].properties.settings, option(t)).toEqual({
          $ref: `#/components/schemas/${pascal(t)}WidgetSettings`,
        });
      }
    }
    expect(s.UpdateWidgetRequest.properties.settings.anyOf).toEqual(
      WIDGET_TYPES.map((t) => ({ $ref: `#/components/schemas/${pascal(t)}WidgetSettings` })),
    );
    expect(s.MenuWidgetSettings).toMatchObject({
      type: 'object',
      required: ['menu'],
      additionalProperties: false,
      properties: { menu: { type: 'string', minLength: 1, maxLength: 200 } },
    });
    expect(s.RecentEntriesWidgetSettings.properties.limit).toMatchObject({ minimum: 1, maximum: 20, default: 5 });
  });

  it('generated from the document, are accepted by the door and, naming records that exist, by the service', async () => {
    const cms = await testCms('sqlite');
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as Schema;
    const resolve = resolver(doc);
    await postsCollection(cms);
    const admin = (method: string, path: string, body: unknown) =>
      call(cms, method, path, { token: cms.adminToken, body });
    expect((await admin('POST', '/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] })).status).toBe(
      201,
    );
    expect((await admin('POST', '/menus', { name: 'main', label: 'Main' })).status).toBe(201);
    expect((await admin('POST', '/sections', { slug: 'about', title: 'About' })).status).toBe(201);
    expect((await admin('POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar' })).status).toBe(201);
    const accepted: Record<string, number> = {};
    for (const t of WIDGET_TYPES) {
      const schema = { $ref: `#/components/schemas/Create${pascal(t)}WidgetRequest` };
      const samples = fc.sample(validArb(resolve, schema, seeded), { seed: 38, numRuns: 12 }).map(fill);
      for (const body of samples) {
        // What the document calls valid, the door's schema takes: both for the new widget and as an update.
        const parsed = WidgetCreateBody.safeParse(body);
        expect(parsed.success, `${t}: ${JSON.stringify(body).slice(0, 200)} ${parsed.error?.message}`).toBe(true);
        expect(WidgetUpdateBody.safeParse({ settings: body.settings }).success, t).toBe(true);
        expect(WIDGET_SETTINGS[t].safeParse(body.settings).success, t).toBe(true);
      }
      // The service also checks what the type's schema cannot: the named records exist, and rich text
      // blocks are Portable Text (the document says so in prose only: `items: {}`, so some are refused).
      for (const body of samples) {
        const res = await admin('POST', '/widget-areas/sidebar/widgets', body);
        expect([201, 400], `${t}: ${JSON.stringify(res.body).slice(0, 300)}`).toContain(res.status);
        if (res.status === 201) {
          accepted[t] = (accepted[t] ?? 0) + 1;
          expect(res.body.data.type).toBe(t);
          expect(WIDGET_SETTINGS[t].parse(res.body.data.settings)).toEqual(res.body.data.settings);
        }
      }
    }
    expect(Object.keys(accepted).sort(), JSON.stringify(accepted)).toEqual([...WIDGET_TYPES].sort());
  });
});
