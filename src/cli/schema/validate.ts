import { z } from 'zod';
import { UsageError } from '../errors.js';
import { relationNames, relationRole, type SchemaDocument, validationOf } from './document.js';

/**
 * The shape of a schema document, checked before anything is planned. Field
 * and collection rules themselves are the server's: they are checked by the
 * target when the plan is applied.
 */
const Field = z.looseObject({
  slug: z.string().min(1),
  label: z.string().min(1),
  type: z.string().min(1),
  validation: z.record(z.string(), z.unknown()).optional(),
});

const Doc = z.strictObject({
  version: z.literal(1),
  collections: z
    .array(
      z.looseObject({
        slug: z.string().min(1),
        label: z.string().min(1),
        labelSingular: z.string().optional(),
        description: z.string().nullable().optional(),
        icon: z.string().nullable().optional(),
        supports: z.array(z.string()).optional(),
        fields: z.array(Field).default([]),
      }),
    )
    .default([]),
  blockTypes: z
    .array(
      z.strictObject({
        slug: z.string().min(1),
        label: z.string().min(1),
        description: z.string().nullable().optional(),
        icon: z.string().nullable().optional(),
        activeVersion: z.number().int().min(1).optional(),
        versions: z
          .array(z.strictObject({ version: z.number().int().min(1), label: z.string().min(1), fields: z.array(Field) }))
          .min(1),
      }),
    )
    .default([]),
});

function fail(what: string, problems: string[]): never {
  throw new UsageError(`${what} is not a valid schema document:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

export function parseSchemaDocument(value: unknown, what: string): SchemaDocument {
  const parsed = Doc.safeParse(value);
  if (!parsed.success) {
    fail(
      what,
      parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`),
    );
  }
  const doc = parsed.data as unknown as SchemaDocument;
  const problems: string[] = [];
  const slugs = new Set<string>();
  const blockTypes = new Set(doc.blockTypes.map((b) => b.slug));
  const parents = relationNames(doc);
  for (const b of doc.blockTypes) {
    const numbers = b.versions.map((v) => v.version);
    if (numbers.some((n, i) => n !== i + 1))
      problems.push(`blockTypes.${b.slug}: versions must be numbered 1, 2, 3 … in order`);
    if (b.activeVersion !== undefined && !numbers.includes(b.activeVersion)) {
      problems.push(`blockTypes.${b.slug}.activeVersion: no version ${b.activeVersion}`);
    }
  }
  for (const c of doc.collections) {
    if (slugs.has(c.slug)) problems.push(`collections.${c.slug}: listed twice`);
    slugs.add(c.slug);
  }
  for (const c of doc.collections) {
    const fields = new Set<string>();
    for (const f of c.fields) {
      const at = `collections.${c.slug}.fields.${f.slug}`;
      if (fields.has(f.slug)) problems.push(`${at}: listed twice`);
      fields.add(f.slug);
      const v = validationOf(f);
      const role = relationRole(f);
      if (role === 'parent' && !slugs.has(String(v.targetCollection))) {
        problems.push(`${at}: targetCollection "${String(v.targetCollection)}" is not a collection of this document`);
      }
      if (role === 'child' && !parents.has(String(v.relation))) {
        problems.push(`${at}: no reference field of this document creates relation "${String(v.relation)}"`);
      }
      if (f.type === 'blocks') {
        for (const t of [...((v.allowedTypes as unknown[]) ?? []), ...((v.retiredTypes as unknown[]) ?? [])]) {
          if (typeof t === 'string' && !blockTypes.has(t))
            problems.push(`${at}: block type "${t}" is not in this document`);
        }
      }
    }
  }
  if (problems.length) fail(what, problems.slice(0, 30));
  return doc;
}
