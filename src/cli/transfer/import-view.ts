import { ROLE_NAMES, type RoleLevel } from '../../auth/roles.js';
import { byteSize, keyValues, printable, shortTime, table } from '../format.js';
import type { TransferImport, TransferImportPlan, TransferImportReceipt } from '../target/types.js';
import { plural, recordTotal } from './counts.js';

/**
 * How people see an import, its plan and its receipt (scripts use --json,
 * which prints them as the API gives them). Text from the package (names,
 * titles, messages) passes through `printable` like every stored text.
 */

/** `8: settings 1, users 2, …` (kinds in the package's order). */
function byKind(counts: Record<string, number>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  return entries.length ? `${recordTotal(counts)}: ${entries.map(([k, n]) => `${k} ${n}`).join(', ')}` : 'none';
}

const quoted = (text: string | null) => (text === null ? 'none' : JSON.stringify(text));

interface Item {
  code: string;
  message: string;
  kind?: string;
  count?: number;
}

/** `  - code (kind, count): message` lines, with the number left out when the list was cut. */
function items(title: string, list: { items: Item[]; total: number }): string[] {
  if (!list.total) return [];
  const lines = [`${title} (${list.total})`];
  for (const i of list.items) {
    const about = [i.kind, i.count === undefined ? undefined : String(i.count)].filter(Boolean).join(', ');
    lines.push(`  - ${i.code}${about ? ` (${about})` : ''}: ${i.message}`);
  }
  if (list.items.length < list.total) lines.push(`  … and ${list.total - list.items.length} more (see --json)`);
  return lines;
}

function transformations(list: Array<{ code: string; kind?: string; count: number }>): string[] {
  if (!list.length) return [];
  return ['Transformations', ...list.map((t) => `  - ${t.code}${t.kind ? ` (${t.kind})` : ''}: ${t.count}`)];
}

type Principal = TransferImportPlan['principals']['items'][number];

function mapsTo(p: Principal): string {
  if (p.mappedUserId === null) return 'created as a new user';
  if (p.mappedUserId === p.suggestedUserId) return `${p.mappedUserId} (same e-mail address)`;
  return p.mappedUserId;
}

const roleOf = (role: number) => ROLE_NAMES[role as RoleLevel] ?? String(role);

/** The plan: source, counts, users and where their records go, transformations, warnings, blockers. */
export function planText(importId: string, plan: TransferImportPlan): string {
  const { source, decisions } = plan;
  const blockers = plan.blockers.total;
  const head = keyValues([
    ['import', importId],
    [
      'source',
      `${source.url} (${quoted(source.title)}), release ${source.release}, database ${source.schemaVersion}, exported ${shortTime(source.createdAt)}`,
    ],
    ['package digest', plan.packageDigest],
    ['plan digest', plan.planDigest],
    ['records', byKind(plan.counts.records)],
    [
      'files',
      `${plan.counts.files} (${byteSize(plan.sizes.bytes)}), ${plan.counts.mediaFiles} of them media (${byteSize(plan.sizes.mediaBytes)})`,
    ],
    ['site title', decisions.title === 'package' ? `the package's (${quoted(source.title)})` : "this site's (kept)"],
    ['tagline', decisions.tagline === 'package' ? `the package's (${quoted(source.tagline)})` : "this site's (kept)"],
    ['executable', plan.executable ? 'yes' : `no: ${plural(blockers, 'blocker')}`],
  ]);
  const sections: string[] = [head];
  if (plan.principals.items.length) {
    // Addresses come with the plan for the local command line and sessions only, never for tokens.
    const withEmail = plan.principals.items.some((p) => p.email !== undefined);
    sections.push(
      table(
        ['PACKAGE USER', 'NAME', ...(withEmail ? ['EMAIL'] : []), 'ROLE', 'RECORDS', 'RECORDS GO TO'],
        plan.principals.items.map((p) => [
          p.id,
          `${p.name ?? '—'}${p.disabled ? ' (disabled)' : ''}`,
          ...(withEmail ? [p.email ?? '—'] : []),
          roleOf(p.role),
          String(p.records),
          mapsTo(p),
        ]),
      ),
    );
  }
  const rest = [
    ...transformations(plan.transformations),
    ...items('Warnings', plan.warnings),
    ...items('Blockers', plan.blockers),
  ];
  if (rest.length) sections.push(rest.map(printable).join('\n'));
  return sections.join('\n\n');
}

/** The blockers, for the error that stops an import. */
export function blockerLines(plan: TransferImportPlan): string {
  return items('Blockers', plan.blockers).slice(1).map(printable).join('\n');
}

const asItems = (value: unknown): Item[] =>
  Array.isArray(value) ? (value as Item[]).filter((i) => typeof i?.code === 'string') : [];

/** The receipt: what was written, left out and mapped. */
export function receiptText(r: TransferImportReceipt): string {
  const dropped = recordTotal(r.dropped);
  const head = keyValues([
    ['import', `${r.importId} complete`],
    ['records', `${byKind(r.records)} written`],
    ['left out', dropped ? `${byKind(r.dropped)} (they pointed at rows not in the package)` : 'none'],
    ['users', `${r.principals.mapped} mapped to users of this site, ${r.principals.created} created`],
    ['media', `${r.media.count} (${byteSize(r.media.bytes)})`],
    ['started', r.startedAt],
    ['completed', r.completedAt],
    ['package digest', r.packageDigest],
    ['plan digest', r.planDigest],
    ['receipt digest', r.receiptDigest],
  ]);
  const changes = asItems(r.transformations) as unknown as Array<{ code: string; kind?: string; count: number }>;
  const warnings = asItems(r.warnings);
  const rest = [...transformations(changes), ...items('Warnings', { items: warnings, total: warnings.length })];
  return rest.length ? `${head}\n\n${rest.map(printable).join('\n')}` : head;
}

/** `uploading`, `failed (CODE)`, `cancelled, holds the site` … */
export function stateText(op: TransferImport): string {
  const state = op.error ? `${op.state} (${op.error.code})` : op.state;
  return op.holdsSite && op.state !== 'executing' ? `${state}, holds the site` : state;
}

function planSummary(op: TransferImport): string {
  if (!op.plan) return '—';
  if (!op.plan.executable) return plural(op.plan.blockers, 'blocker');
  return op.plan.warnings ? `executable, ${plural(op.plan.warnings, 'warning')}` : 'executable';
}

export const IMPORT_HEADERS = ['ID', 'STATE', 'CREATED', 'FILES', 'BYTES', 'PLAN'];

export const importRow = (op: TransferImport) => [
  op.id,
  stateText(op),
  shortTime(op.createdAt),
  `${op.files.uploaded}/${op.files.listed}`,
  byteSize(op.files.bytesUploaded),
  planSummary(op),
];

/** What to do next with an import in this state. */
export function nextStep(op: TransferImport): string | undefined {
  const id = op.id;
  switch (op.state) {
    case 'uploading':
    case 'analyzing':
      return `cms transfer import ARCHIVE --id ${id} (uploads what is missing, then analyses)`;
    case 'planned':
      return `cms transfer plan ${id}, then cms transfer import ARCHIVE --id ${id}`;
    case 'executing':
      return `cms transfer import ARCHIVE --id ${id} (drives it to the end), or cms transfer cancel ${id}`;
    case 'complete':
      return `cms transfer receipt ${id}`;
    case 'failed':
    case 'cancelled':
      return op.holdsSite
        ? `cms transfer abandon ${id} (undoes what it wrote and opens the site to writes again)`
        : `cms transfer abandon ${id} (removes its uploads; until then the site plans no other import)`;
    default:
      return undefined;
  }
}

/** One import in detail. */
export function statusText(op: TransferImport): string {
  const { files } = op;
  return keyValues([
    ['import', op.id],
    ['state', stateText(op)],
    ['error', op.error ? `[${op.error.code}] ${op.error.message}` : undefined],
    ['stage', op.stage ?? undefined],
    // Records written, once it executes (before that the counter says little).
    [
      'records',
      op.progress.records === undefined
        ? undefined
        : op.state === 'executing'
          ? `${op.progress.records}/${op.progress.total} written`
          : `${op.progress.records} written`,
    ],
    ['files', `${files.uploaded} of ${files.listed} uploaded${files.missing ? `, ${files.missing} missing` : ''}`],
    ['bytes', `${byteSize(files.bytesUploaded)} of ${byteSize(files.bytes)}`],
    ['package digest', op.packageDigest ?? undefined],
    ['plan digest', op.planDigest ?? undefined],
    ['plan', op.plan ? planSummary(op) : undefined],
    ['holds the site', op.holdsSite ? 'yes: other writes are refused until it completes or is abandoned' : undefined],
    ['created', op.createdAt],
    ['updated', op.updatedAt],
    ['completed', op.completedAt ?? undefined],
    ['next', nextStep(op)],
  ]);
}
