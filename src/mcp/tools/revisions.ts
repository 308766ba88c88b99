import { z } from 'zod';
import { restoreContentRevision } from '../../operations/content.js';
import { GuardedBody } from '../../schemas/content.js';
import { READ, type ToolDef, tool, toolOf, WRITE } from '../registry.js';

const Entry = z.object({ collection: z.string().min(1), id: z.string().min(1) });

export const revisionTools: ToolDef[] = [
  // The REST operation's answer has a schema; the tool has always answered without an output schema.
  tool({
    name: 'revision_list',
    title: 'List Revisions',
    description: 'Revisions of an entry, newest first (the live and draft ones are flagged).',
    scope: 'content:read',
    annotations: READ,
    input: Entry.extend({ cursor: z.string().optional(), limit: z.number().int().min(1).max(100).optional() }),
    run: ({ services, actor }, { collection, id, ...opts }) => services.content.revisions(actor, collection, id, opts),
  }),
  toolOf(restoreContentRevision, {
    name: 'revision_restore',
    title: 'Restore Revision',
    description: 'Bring back the values of a revision (staged as a draft when the entry is live).',
    annotations: WRITE,
    input: Entry.extend({ revisionId: z.string().min(1) }).extend(GuardedBody.shape),
    toArgs: (a) => ({
      params: { collection: a.collection, id: a.id, revisionId: a.revisionId },
      body: { _rev: a._rev, overrideLock: a.overrideLock },
    }),
  }),
];
