import { z } from 'zod';
import { GuardedBody, SingleContent } from '../../schemas/content.js';
import { READ, type ToolDef, tool, WRITE } from '../registry.js';

const Entry = z.object({ collection: z.string().min(1), id: z.string().min(1) });

export const revisionTools: ToolDef[] = [
  tool({
    name: 'revision_list',
    title: 'List Revisions',
    description: 'Revisions of an entry, newest first (the live and draft ones are flagged).',
    scope: 'content:read',
    annotations: READ,
    input: Entry.extend({ cursor: z.string().optional(), limit: z.number().int().min(1).max(100).optional() }),
    run: ({ services, actor }, { collection, id, ...opts }) => services.content.revisions(actor, collection, id, opts),
  }),
  tool({
    name: 'revision_restore',
    title: 'Restore Revision',
    description: 'Bring back the values of a revision (staged as a draft when the entry is live).',
    scope: 'content:write',
    annotations: WRITE,
    input: Entry.extend({ revisionId: z.string().min(1) }).extend(GuardedBody.shape),
    output: SingleContent,
    run: ({ services, actor }, a) =>
      services.content.restoreRevision(actor, a.collection, a.id, a.revisionId, {
        _rev: a._rev,
        overrideLock: a.overrideLock,
      }),
  }),
];
