import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { ROLES } from '../../auth/roles.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import { inTransaction } from '../context.js';
import type { SiteIdentity } from '../settings/index.js';
import { normalizeEmail } from '../users/index.js';
import type { AuthDeps } from './deps.js';
import type { Enrolment } from './enrolment.js';

/** `_cms_meta` key written once by the setup that wins; a second insert violates its primary key. */
const SETUP_MARK = 'setup_completed_at';

interface SetupData {
  siteTitle: string;
  tagline: string | null;
  email: string;
  name: string | null;
}

export interface SetupInput {
  siteTitle: string;
  tagline?: string | null;
  email: string;
  name?: string | null;
}

export const setupDone = () => new CmsError('SETUP_COMPLETE', 'Setup is complete: the site already has users');

/** The wizard's site fields, trimmed and checked (the passkey and the login-provider paths alike). */
export function siteFields(input: { siteTitle: string; tagline?: string | null }): {
  siteTitle: string;
  tagline: string | null;
} {
  const siteTitle = input.siteTitle.trim();
  if (!siteTitle || siteTitle.length > 200) throw validationError('Site title must be 1 to 200 characters');
  const tagline = input.tagline?.trim() || null;
  if (tagline && tagline.length > 500) throw validationError('Tagline must be at most 500 characters');
  return { siteTitle, tagline };
}

/**
 * First user setup: site title and tagline, the account, then a passkey or a
 * login provider. Open only while no user exists; two racing completions cannot
 * both succeed (the setup mark is a primary key, inserted in the same
 * transaction as the user).
 */
export function setupOps(deps: AuthDeps, enrol: Enrolment) {
  const { ctx } = deps;

  async function needsSetup(): Promise<boolean> {
    return (await deps.users.count()) === 0;
  }

  async function status(): Promise<{ needsSetup: boolean; site: SiteIdentity | null }> {
    return { needsSetup: await needsSetup(), site: await deps.site.site() };
  }

  /**
   * The one completion of setup: the setup mark, no user yet, the site's title and tagline,
   * then the first account, which `createAccount` makes (with a passkey, or a provider identity)
   * in the same transaction.
   */
  async function finish<T>(
    site: { siteTitle: string; tagline: string | null },
    createAccount: (trx: Kdb) => Promise<T>,
  ): Promise<T> {
    try {
      return await inTransaction(ctx.db, async (trx) => {
        await trx
          .insertInto('_cms_meta')
          .values({ key: SETUP_MARK, value: isoNow(ctx.clock) })
          .execute();
        const existing = await trx.selectFrom('_cms_users').select('id').limit(1).executeTakeFirst();
        if (existing) throw setupDone();
        await deps.site.writeIdentity({ title: site.siteTitle, tagline: site.tagline }, trx);
        return createAccount(trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw setupDone();
      throw err;
    }
  }

  async function options(input: SetupInput) {
    if (!(await needsSetup())) throw setupDone();
    const { siteTitle, tagline } = siteFields(input);
    const data: SetupData = {
      siteTitle,
      tagline,
      email: normalizeEmail(input.email),
      name: input.name?.trim() || null,
    };
    const { challengeId, options } = await enrol.start(
      'setup',
      { id: newId(), email: data.email, name: data.name },
      data,
      siteTitle,
    );
    return { setupToken: challengeId, options };
  }

  async function complete(
    input: { setupToken: string; credential: RegistrationResponseJSON; passkeyName?: string | null },
    previousSession?: string | null,
  ) {
    if (!(await needsSetup())) throw setupDone();
    const { userId, data, cred } = await enrol.finish<SetupData>('setup', input.setupToken, input.credential);
    return finish(data, (trx) =>
      enrol.createAccount(
        trx,
        { id: userId, email: data.email, name: data.name, role: ROLES.ADMIN },
        cred,
        input.passkeyName,
        'setup',
        previousSession,
      ),
    );
  }

  return { status, options, complete, needsSetup, finish };
}
