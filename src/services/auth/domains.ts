import { type Actor, requirePermission, roleName } from '../../auth/actor.js';
import { isRoleLevel, ROLES } from '../../auth/roles.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AllowedDomainsTable } from '../../db/tables-identity.js';
import type { ServiceContext } from '../context.js';

/** Self-service sign-up never yields more than an Editor; Admins are made by Admins. */
export const MAX_SIGNUP_ROLE = ROLES.EDITOR;

export interface AllowedDomain {
  domain: string;
  defaultRole: number;
  defaultRoleName: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

function toDomain(row: AllowedDomainsTable): AllowedDomain {
  return {
    domain: row.domain,
    defaultRole: row.default_role,
    defaultRoleName: roleName(row.default_role),
    enabled: Boolean(row.enabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+(?=[a-z0-9-]*[a-z])${LABEL}$`);

export function normalizeDomain(input: string): string {
  const d = input.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  if (d.length > 253 || !DOMAIN.test(d)) throw validationError(`"${input}" is not a valid domain name`);
  return d;
}

/** The role sign-up gives people of a domain: a role of the table, at most Editor. */
export function checkSignupRole(role: number): number {
  if (!isRoleLevel(role)) throw validationError('defaultRole must be one of 10, 20, 30, 40, 50');
  if (role > MAX_SIGNUP_ROLE) {
    throw validationError('defaultRole may be at most Editor (40): sign-up never creates Admins', {
      max: MAX_SIGNUP_ROLE,
    });
  }
  return role;
}

/** Allowed email domains: people with an address there may sign up, with the domain's default role. */
export function domainOps(ctx: ServiceContext) {
  async function find(domain: string, db: Kdb = ctx.db): Promise<AllowedDomainsTable | undefined> {
    return db.selectFrom('_cms_allowed_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
  }

  async function list(actor: Actor): Promise<AllowedDomain[]> {
    requirePermission(actor, 'users:manage');
    const rows = await ctx.db.selectFrom('_cms_allowed_domains').selectAll().orderBy('domain').limit(1000).execute();
    return rows.map(toDomain);
  }

  async function create(actor: Actor, input: { domain: string; defaultRole: number }): Promise<AllowedDomain> {
    requirePermission(actor, 'users:manage');
    const now = isoNow(ctx.clock);
    const row: AllowedDomainsTable = {
      domain: normalizeDomain(input.domain),
      default_role: checkSignupRole(input.defaultRole),
      enabled: 1,
      created_at: now,
      updated_at: now,
    };
    try {
      await ctx.db.insertInto('_cms_allowed_domains').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new CmsError('ALREADY_EXISTS', `${row.domain} is already an allowed domain`);
      throw err;
    }
    return toDomain(row);
  }

  async function update(
    actor: Actor,
    domain: string,
    input: { defaultRole?: number; enabled?: boolean },
  ): Promise<AllowedDomain> {
    requirePermission(actor, 'users:manage');
    const key = normalizeDomain(domain);
    const patch: Partial<AllowedDomainsTable> = { updated_at: isoNow(ctx.clock) };
    if (input.defaultRole !== undefined) patch.default_role = checkSignupRole(input.defaultRole);
    if (input.enabled !== undefined) patch.enabled = input.enabled ? 1 : 0;
    const res = await ctx.db
      .updateTable('_cms_allowed_domains')
      .set(patch)
      .where('domain', '=', key)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound('Allowed domain');
    return toDomain((await find(key))!);
  }

  async function remove(actor: Actor, domain: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    const key = normalizeDomain(domain);
    const res = await ctx.db.deleteFrom('_cms_allowed_domains').where('domain', '=', key).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound('Allowed domain');
  }

  /** The enabled domain row for an email address, if sign-up is open to it. */
  async function forEmail(email: string, db: Kdb = ctx.db): Promise<AllowedDomainsTable | undefined> {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const row = await find(domain, db);
    return row?.enabled ? row : undefined;
  }

  return { list, create, update, remove, forEmail };
}

export type DomainOps = ReturnType<typeof domainOps>;
