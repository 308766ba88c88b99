import { isRoleLevel } from '../../auth/roles.js';
import { keep, refuse, ruleProblem, type StoredRow, type StoredVerdict } from '../stored-record.js';
import { normalizeEmail } from '../users/index.js';
import { checkSignupRole, normalizeDomain } from './domains.js';

/**
 * Users and sign-up domains from elsewhere (a site package), judged by the
 * rules the users API applies: a role from the role table (a number outside
 * it would pass every `role >= Admin` check unseen), a valid e-mail address,
 * a sign-up domain that never hands out more than Editor.
 */
export function storedUser(row: StoredRow): StoredVerdict {
  if (!isRoleLevel(row.role)) return refuse(row, `role ${String(row.role)} is not a role of the role table (10–50)`);
  const email = ruleProblem(() => normalizeEmail(String(row.email)));
  if (email) return refuse(row, `email: ${email}`);
  if (row.email !== normalizeEmail(String(row.email)))
    return refuse(row, 'email is not in its stored (lower-case) form');
  if (typeof row.name === 'string' && [...row.name].length > 200) return refuse(row, 'name: at most 200 characters');
  if (row.disabled !== 0 && row.disabled !== 1) return refuse(row, 'disabled must be 0 or 1');
  return keep(row);
}

export function storedAllowedDomain(row: StoredRow): StoredVerdict {
  const domain = ruleProblem(() => normalizeDomain(String(row.domain)));
  if (domain) return refuse(row, `domain: ${domain}`);
  if (row.domain !== normalizeDomain(String(row.domain))) return refuse(row, 'domain is not in its stored form');
  const role = ruleProblem(() => checkSignupRole(row.default_role as number));
  if (role) return refuse(row, `default_role: ${role}`);
  if (row.enabled !== 0 && row.enabled !== 1) return refuse(row, 'enabled must be 0 or 1');
  return keep(row);
}
