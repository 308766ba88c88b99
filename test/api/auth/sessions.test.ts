import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { sha256Hex } from '../../../src/core/ids.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../src/services/auth/sessions.js';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { Browser, setupSite } from '../../helpers/session.js';

const DAY = 24 * 3600_000;

describeEachDialect('sessions', (dialect) => {
  it('stores only the SHA-256 of the session id, rotates it at sign-in and deletes it at sign-out', async () => {
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    const first = browser.cookie!;
    const rows = await cms.ctx.db.selectFrom('_cms_sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].id_hash).toBe(sha256Hex(first));
    expect(JSON.stringify(rows)).not.toContain(first);

    // Signing in again from the same browser replaces the old session.
    expect((await browser.signInWithPasskey()).status).toBe(200);
    expect(browser.cookie).not.toBe(first);
    const stale = new Browser(cms);
    stale.cookie = first;
    expect((await stale.call('GET', '/auth/me')).status).toBe(401);
    expect(await cms.ctx.db.selectFrom('_cms_sessions').selectAll().execute()).toHaveLength(1);

    const current = browser.cookie!;
    const out = await browser.call('POST', '/auth/logout');
    expect(out.headers.get('set-cookie')).toMatch(/cms_session=;.*Max-Age=0/);
    const replay = new Browser(cms);
    replay.cookie = current;
    expect((await replay.call('GET', '/auth/me')).status).toBe(401);
    expect(await cms.ctx.db.selectFrom('_cms_sessions').selectAll().execute()).toHaveLength(0);
  });

  it('slides the idle expiry on use and ends at the absolute limit', async () => {
    const clock = new ManualClock();
    const cms = await testCms(dialect, { withAdmin: false, clock });
    const { browser } = await setupSite(cms);
    // Used every 29 days: still signed in after 60 days.
    for (let i = 0; i < 2; i++) {
      clock.advance(SESSION_IDLE_MS - DAY);
      expect((await browser.call('GET', '/auth/me')).status).toBe(200);
    }
    // Unused for 30 days: gone.
    clock.advance(SESSION_IDLE_MS + 1);
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);

    const again = await browser.signInWithPasskey();
    expect(again.status).toBe(200);
    for (let t = 0; t < SESSION_ABSOLUTE_MS - 20 * DAY; t += 20 * DAY) {
      clock.advance(20 * DAY);
      expect((await browser.call('GET', '/auth/me')).status).toBe(200);
    }
    clock.advance(20 * DAY);
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
  });

  it('is served by any process on the same database', async () => {
    const { createCms } = await import('../../../src/index.js');
    const cms = await testCms(dialect, { withAdmin: false });
    const { browser } = await setupSite(cms);
    const other = await createCms({
      config: cms.config,
      database: cms.database,
      migrate: false,
      scheduler: false,
      logger: cms.log,
    });
    const elsewhere = new Browser(other);
    elsewhere.cookie = browser.cookie;
    expect((await elsewhere.call('GET', '/auth/me')).status).toBe(200);
    await elsewhere.call('POST', '/auth/logout');
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
  });
});
