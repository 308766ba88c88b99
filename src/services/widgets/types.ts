import { z } from 'zod';
import { findTextProblem, isStorableText } from '../../core/text.js';

/**
 * Widget types and the settings each takes. Settings name other records by
 * their stable names (menu name, section slug, taxonomy name, collection
 * slug); the service checks that they exist when a widget is written. The
 * REST bodies, the response and the OpenAPI document are built from these
 * schemas (src/schemas/widgets.ts); their descriptions are the document's.
 */
export const WIDGET_TYPES = ['richText', 'menu', 'section', 'terms', 'recentEntries', 'custom'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

const name = z
  .string()
  .min(1)
  .max(200)
  .refine(isStorableText, 'must not contain NUL characters or unpaired surrogates');

const MAX_CUSTOM_BYTES = 64 * 1024;

export const WIDGET_SETTINGS = {
  richText: z
    .object({ content: z.array(z.unknown()).max(500).describe('Portable Text blocks') })
    .strict()
    .describe('Portable Text shown as is'),
  menu: z
    .object({ menu: name.describe('Menu name') })
    .strict()
    .describe("A menu, shown in the reader's locale"),
  section: z
    .object({ section: name.describe('Section slug') })
    .strict()
    .describe('A section, by slug'),
  terms: z
    .object({
      taxonomy: name.describe('Taxonomy name'),
      showCounts: z.boolean().default(false),
      hideEmpty: z.boolean().default(false),
    })
    .strict()
    .describe('The terms of a taxonomy (a category list, a tag cloud)'),
  recentEntries: z
    .object({ collection: name.describe('Collection slug'), limit: z.number().int().min(1).max(20).default(5) })
    .strict()
    .describe('The latest published entries of a collection'),
  custom: z
    .object({ kind: name, data: z.unknown().optional().describe('Any JSON, at most 64 KiB') })
    .strict()
    .superRefine((v, ctx) => {
      const problem = findTextProblem(v.data);
      if (problem) ctx.addIssue({ code: 'custom', path: ['data', ...problem.path], message: problem.message });
      if (JSON.stringify(v.data ?? null).length > MAX_CUSTOM_BYTES) {
        ctx.addIssue({ code: 'custom', path: ['data'], message: 'custom widget data is limited to 64 KiB' });
      }
    })
    .describe("Anything the site's front end knows how to render: a kind and JSON data"),
} satisfies Record<WidgetType, z.ZodType>;

export type WidgetSettings = { [K in WidgetType]: z.output<(typeof WIDGET_SETTINGS)[K]> };
