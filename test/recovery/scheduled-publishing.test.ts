/**
 * Crash recovery of scheduled publishing: entries with a pending draft are scheduled for a moment
 * just past, the real server's scheduler publishes them one transaction each, and the server is
 * killed with SIGKILL once the share of them the seed picks is live. After a restart on the same
 * data the scheduler publishes the rest by itself, each entry exactly once (one version step from
 * its scheduled version, its draft revision become the live one, its schedule record gone), and
 * the consistency checker reports ok.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { personActor } from '../../src/auth/actor.js';
import { SCHEDULER_INTERVAL_MS } from '../../src/services/content/scheduler.js';
import { describeEachDialect } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';
import {
  checkReport,
  crashSeeds,
  findings,
  freshSite,
  kill9,
  rng,
  type Server,
  type Site,
  startServer,
  stopServer,
} from './harness.js';

const ENTRIES = 120;

interface Row {
  id: string;
  status: string;
  version: number;
  scheduled_at: string | null;
  live_revision_id: string | null;
  draft_revision_id: string | null;
}

describeEachDialect('crash during scheduled publishing', (dialect) => {
  let site: Site;
  let server: Server | null = null;
  beforeAll(async () => {
    site = await freshSite(dialect);
    const cms = await site.open();
    await cms.services.schema.collections.create(personActor(await admin(site), 'cli'), {
      slug: 'notes',
      label: 'Notes',
      fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
    });
  }, 120_000);
  afterAll(async () => {
    if (server) await stopServer(server);
    await site?.drop();
  });

  async function admin(s: Site) {
    const cms = await s.open();
    const user = await cms.ctx.db
      .selectFrom('_cms_users')
      .selectAll()
      .where('id', '=', s.adminId)
      .executeTakeFirstOrThrow();
    return { id: user.id, name: user.name, email: user.email, role: user.role };
  }

  const rows = async (ids: string[]): Promise<Row[]> => {
    const cms = await site.open();
    return (await cms.ctx.db
      .selectFrom('ec_notes' as never)
      .select(['id', 'status', 'version', 'scheduled_at', 'live_revision_id', 'draft_revision_id'] as never[])
      .where('id' as never, 'in', ids as never)
      .execute()) as Row[];
  };

  // The scheduler first looks 10 s after a start, twice per seed: one seed by default.
  it.each(crashSeeds(1))(
    'seed %i: kill -9 mid-run, restart: every due entry published exactly once',
    async (seed) => {
      const cms = await site.open();
      const actor = personActor(await admin(site), 'cli');
      const content = cms.services.content;
      const ids: string[] = [];
      for (let n = 0; n < ENTRIES; n++) {
        const { item } = await content.create(actor, 'notes', { data: { title: `Note ${seed}-${n}` } });
        await content.publish(actor, 'notes', item.id);
        // A pending draft over the live version: the scheduled publication makes it live.
        await content.update(actor, 'notes', item.id, { data: { title: `Note ${seed}-${n} (scheduled)` } });
        ids.push(item.id);
      }
      // Due by the time the server has started (a schedule must be in the future when it is set).
      for (const id of ids) {
        await content.schedule(actor, 'notes', id, { scheduledAt: new Date(Date.now() + 1_000).toISOString() });
      }
      const before = new Map((await rows(ids)).map((r) => [r.id, r]));
      const killAt = rng(seed).int(5, ENTRIES - 20);

      server = await startServer(site);
      const live = async () => (await rows(ids)).filter((r) => r.scheduled_at === null).length;
      // The kill point is the number of entries the scheduler has published, read from the database.
      await waitFor(async () => (await live()) >= killAt, {
        what: `the scheduler to publish ${killAt} entries`,
        timeoutMs: SCHEDULER_INTERVAL_MS + 60_000,
        intervalMs: 5,
      });
      await kill9(server);
      const atKill = await live();
      const context = `seed ${seed} (${dialect}): killed at ${atKill}/${ENTRIES} published (target ${killAt})`;
      console.info(`[crash] scheduled publishing: ${context}`);
      expect(atKill, `${context}: the run ended before the kill`).toBeLessThan(ENTRIES);

      server = await startServer(site);
      await waitFor(async () => (await live()) === ENTRIES, {
        what: `${context}: the scheduler to publish the rest after the restart`,
        timeoutMs: SCHEDULER_INTERVAL_MS + 60_000,
        intervalMs: 250,
      });
      for (const row of await rows(ids)) {
        const was = before.get(row.id)!;
        expect(row.status, `${context}: ${row.id}`).toBe('published');
        // Published exactly once: one version step, the scheduled draft now the live revision.
        expect(row.version, `${context}: ${row.id} version`).toBe(was.version + 1);
        expect(row.live_revision_id, `${context}: ${row.id} live revision`).toBe(was.draft_revision_id);
        expect(row.draft_revision_id).toBeNull();
      }
      const left = await cms.ctx.db
        .selectFrom('_cms_entry_schedules')
        .select('entry_id')
        .where('entry_id', 'in', ids)
        .execute();
      expect(left, `${context}: schedule records left`).toEqual([]);
      const report = await checkReport(site);
      expect(report.status, `${context}:\n${findings(report)}`).toBe('ok');
      await stopServer(server);
      server = null;
    },
    180_000,
  );
});
