import { z } from 'zod';
import { type Actor, roleName } from '../../auth/actor.js';
import { issuesError } from '../../core/errors.js';
import { sha256Hex } from '../../core/ids.js';
import type { Manifest } from './manifest.js';

/**
 * An import's plan: what the package holds, what the import will do with
 * it, and what stops it. Made from what the analysis read (the facts) and
 * the administrator's decisions; its digest changes with either, and
 * execute must name the digest of the plan it was shown.
 */

/**
 * A package user, as the plan shows it. Its e-mail address is shown only to
 * an administrator in a session or at the command line (`forViewer`), never
 * in summaries for tokens and MCP clients.
 */
export interface Principal {
  id: string;
  name: string | null;
  email?: string;
  role: number;
  roleName: string;
  disabled: boolean;
  /** Records that name this user (authors, uploaders, bylines …). */
  records: number;
  /** The target user with the same e-mail address, if there is one. */
  suggestedUserId: string | null;
  /** Where the import attributes this user's records: a target user, or null (the user is created). */
  mappedUserId: string | null;
}

export interface PlanItem {
  code: string;
  message: string;
  kind?: string;
  count?: number;
}

export interface Transformation {
  code: string;
  kind?: string;
  count: number;
}

export interface Decisions {
  principals: Record<string, string | null>;
  title: 'package' | 'target';
  tagline: 'package' | 'target';
}

export const DecisionsInput = z
  .object({
    principals: z
      .record(z.string().max(64), z.string().max(64).nullable())
      .optional()
      .describe('Package user ID → target user ID to attribute their records to, or null to create the user'),
    title: z.enum(['package', 'target']).optional().describe("Keep the package's site title or this site's"),
    tagline: z.enum(['package', 'target']).optional().describe("Keep the package's tagline or this site's"),
  })
  .strict();
export type DecisionsInput = z.infer<typeof DecisionsInput>;

/** A documented change (or a note) made to records of one kind, with how many records it touched. */
export interface CountedItem {
  code: string;
  kind: string;
  count: number;
}

/** What the analysis learnt from the package's files (kept in the operation between steps). */
export interface Facts {
  counts: Record<string, number>;
  principals: Array<{ id: string; name: string | null; email: string; role: number; disabled: boolean }>;
  /** References per package user ID. */
  refs: Record<string, number>;
  /** Columns a kind's records carry that this release does not have (dropped on import). */
  unknownColumns: Record<string, string[]>;
  /** Problems that make the package unusable. */
  problems: PlanItem[];
  /** Refused records past the ones listed in `problems` (absent in analyses of earlier releases). */
  problemsOmitted?: number;
  /** Records a domain rule changed (normalised text …), by transformation. */
  transformed?: CountedItem[];
  /** Records kept although the current rules would refuse them on their next save. */
  noted?: CountedItem[];
  domains: string[];
  searchCollections: number;
}

export interface TargetFacts {
  /** Kinds this site already holds, with their counts (an import needs an empty site). */
  occupied: Record<string, number>;
  /** Users of this site by lower-cased e-mail address. */
  usersByEmail: Map<string, string>;
  userIds: Set<string>;
  domains: Set<string>;
  /** Another import holds the site. */
  importActive: string | null;
  missingFiles: number;
  knownSchema: boolean;
  title: string | null;
  tagline: string | null;
}

export interface Plan {
  packageDigest: string;
  planDigest: string;
  executable: boolean;
  source: {
    url: string;
    title: string | null;
    tagline: string | null;
    createdAt: string;
    release: string;
    schemaVersion: string;
  };
  counts: { records: Record<string, number>; files: number; mediaFiles: number };
  sizes: { bytes: number; mediaBytes: number };
  principals: { items: Principal[]; total: number };
  decisions: Decisions;
  transformations: Transformation[];
  warnings: { items: PlanItem[]; total: number };
  blockers: { items: PlanItem[]; total: number };
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** The decisions after `input`, checked against the package's users and this site's. */
export function decide(
  previous: Decisions | null,
  input: DecisionsInput | undefined,
  facts: Facts,
  target: Pick<TargetFacts, 'usersByEmail' | 'userIds'>,
): Decisions {
  const principals: Record<string, string | null> = {};
  for (const p of facts.principals) {
    principals[p.id] =
      previous && p.id in previous.principals
        ? previous.principals[p.id]
        : (target.usersByEmail.get(p.email.toLowerCase()) ?? null);
  }
  const issues = [];
  for (const [id, to] of Object.entries(input?.principals ?? {})) {
    if (!(id in principals)) {
      issues.push({
        path: ['decisions', 'principals', id],
        code: 'unknown_principal',
        message: 'not a user of the package',
      });
    } else if (to !== null && !target.userIds.has(to)) {
      issues.push({ path: ['decisions', 'principals', id], code: 'unknown_user', message: 'not a user of this site' });
    } else {
      principals[id] = to;
    }
  }
  if (issues.length) throw issuesError('Invalid import decisions', issues);
  return {
    principals,
    title: input?.title ?? previous?.title ?? 'package',
    tagline: input?.tagline ?? previous?.tagline ?? 'package',
  };
}

/** The plan as this caller may read it: addresses only for a person in a session or at the command line. */
export function forViewer(plan: Plan, actor: Pick<Actor, 'via'>): Plan {
  if (actor.via === 'session' || actor.via === 'cli') return plan;
  return {
    ...plan,
    principals: { ...plan.principals, items: plan.principals.items.map(({ email: _email, ...p }) => p) },
  };
}

function capped(items: PlanItem[]): { items: PlanItem[]; total: number } {
  return { items: items.slice(0, 50), total: items.length };
}

/** What a note on kept records says, by its code. */
const NOTES: Readonly<Record<string, string>> = {
  values_breaking_constraints:
    'Values that break a rule their field gained after they were stored (required, length, bounds, pattern, options) are imported as they are; the next save of each must correct them',
};

export function makePlan(
  manifest: Manifest,
  digest: string,
  facts: Facts,
  target: TargetFacts,
  decisions: Decisions,
): Plan {
  const blockers: PlanItem[] = [...facts.problems];
  if (facts.problemsOmitted) {
    blockers.push({
      code: 'invalid_record',
      message: `${facts.problemsOmitted} more record(s) are refused for the same kinds of reasons`,
      count: facts.problemsOmitted,
    });
  }
  if (target.missingFiles > 0) {
    blockers.push({
      code: 'files_missing',
      message: `${target.missingFiles} file(s) of the package are not uploaded yet`,
      count: target.missingFiles,
    });
  }
  const occupied = Object.entries(target.occupied).filter(([, n]) => n > 0);
  if (occupied.length) {
    blockers.push({
      code: 'site_not_empty',
      message: `This site already has content (${occupied.map(([k, n]) => `${n} ${k}`).join(', ')}); a package imports into an empty site`,
      count: occupied.reduce((n, [, c]) => n + c, 0),
    });
  }
  if (target.importActive) {
    blockers.push({
      code: 'import_in_progress',
      message: `Import ${target.importActive} holds this site until it completes or is abandoned`,
    });
  }
  if (!target.knownSchema) {
    blockers.push({
      code: 'newer_release',
      message: `The package was written by a newer release (database ${manifest.schemaVersion}); import it into that release or a later one`,
    });
  }
  const principals: Principal[] = facts.principals.map((p) => ({
    id: p.id,
    name: p.name,
    email: p.email,
    role: p.role,
    roleName: roleName(p.role),
    disabled: p.disabled,
    records: facts.refs[p.id] ?? 0,
    suggestedUserId: target.usersByEmail.get(p.email.toLowerCase()) ?? null,
    mappedUserId: decisions.principals[p.id] ?? null,
  }));
  for (const p of facts.principals) {
    const taken = target.usersByEmail.get(p.email.toLowerCase());
    if (decisions.principals[p.id] === null && (taken || target.userIds.has(p.id))) {
      blockers.push({
        code: 'principal_conflict',
        message: `Package user ${p.id} cannot be created: a user of this site has its e-mail address or ID; map it to that user`,
        kind: 'users',
      });
    }
  }
  const warnings: PlanItem[] = [];
  if (manifest.skippedMedia.length) {
    warnings.push({
      code: 'media_skipped_at_export',
      message: 'Media items whose bytes the old site had lost are not in the package',
      kind: 'media',
      count: manifest.skippedMedia.length,
    });
  }
  for (const n of facts.noted ?? []) {
    warnings.push({ code: n.code, message: NOTES[n.code] ?? n.code, kind: n.kind, count: n.count });
  }
  for (const [kind, columns] of Object.entries(facts.unknownColumns)) {
    warnings.push({
      code: 'unknown_columns',
      message: `Columns this release does not have are dropped: ${columns.join(', ')}`,
      kind,
      count: columns.length,
    });
  }
  const mapped = principals.filter((p) => p.mappedUserId !== null);
  const transformations: Transformation[] = [];
  const add = (code: string, count: number, kind?: string) => {
    if (count > 0) transformations.push({ code, ...(kind ? { kind } : {}), count });
  };
  add('principals_mapped', mapped.length, 'users');
  add('principals_created', principals.length - mapped.length, 'users');
  add(
    'user_references_remapped',
    mapped.filter((p) => p.mappedUserId !== p.id).reduce((n, p) => n + p.records, 0),
  );
  add('domains_kept', facts.domains.filter((d) => target.domains.has(d)).length, 'allowedDomains');
  if (decisions.title === 'target' && manifest.source.title !== target.title) add('title_kept', 1, 'settings');
  if (decisions.tagline === 'target' && manifest.source.tagline !== target.tagline) add('tagline_kept', 1, 'settings');
  add(
    'columns_dropped',
    Object.values(facts.unknownColumns).reduce((n, c) => n + c.length, 0),
  );
  for (const t of facts.transformed ?? []) add(t.code, t.count, t.kind);
  add('search_indexes_built', facts.searchCollections, 'searchSettings');
  add('term_counts_computed', facts.counts.contentTerms ?? 0, 'contentTerms');
  add('media_usage_indexed', facts.counts.entries ?? 0, 'entries');

  const media = manifest.files.filter((f) => f.path.startsWith('media/'));
  const counts = { records: facts.counts, files: manifest.files.length, mediaFiles: media.length };
  const planDigest = `sha256:${sha256Hex(
    canonical({
      packageDigest: digest,
      decisions,
      counts,
      blockers: blockers.map((b) => b.code),
      transformations,
    }),
  )}`;
  return {
    packageDigest: digest,
    planDigest,
    executable: blockers.length === 0,
    source: {
      url: manifest.source.url,
      title: manifest.source.title,
      tagline: manifest.source.tagline,
      createdAt: manifest.createdAt,
      release: manifest.generator.version,
      schemaVersion: manifest.schemaVersion,
    },
    counts,
    sizes: {
      bytes: manifest.files.reduce((n, f) => n + f.size, 0),
      mediaBytes: media.reduce((n, f) => n + f.size, 0),
    },
    principals: { items: principals, total: principals.length },
    decisions,
    transformations,
    warnings: capped(warnings),
    blockers: capped(blockers),
  };
}
