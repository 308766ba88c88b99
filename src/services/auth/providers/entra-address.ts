import { stringClaim, trueClaim } from './oidc.js';

/**
 * Which address a Microsoft Entra ID sign-in gives, and whether it counts as
 * verified (spec: "Enterprise directory provider address rules"). Entra lets
 * directory administrators put any text in `email`, so an address is trusted
 * only where the directory vouches for it:
 *
 * 1. the `emailVerified` option decides when set (true: every address, false: none);
 * 2. the `xms_edov` claim, when true, says the account's directory verified the address's domain;
 * 3. a multi-tenant value (`common`, `organizations`, `consumers`) lets accounts of any directory
 *    in, so nothing else counts;
 * 4. with a directory ID, the account must belong to this directory (`tid` equal), not be a guest
 *    (`#EXT#` in its sign-in name, an `idp` claim naming another issuer, `acct` = 1), and the
 *    address must be in the domain of its sign-in name (the user principal name).
 */
export interface EntraRules {
  /** A directory ID (lower-case GUID) or common / organizations / consumers. */
  tenant: string;
  /** The entry's `emailVerified` option, or null when not set. */
  emailVerified: boolean | null;
}

export interface EntraAddress {
  address: string | null;
  verified: boolean;
}

const MULTI_TENANT = new Set(['common', 'organizations', 'consumers']);

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** A guest or an account of another directory, as far as the token tells. */
export function isGuest(claims: Record<string, unknown>, signInName: string | null): boolean {
  if (signInName?.toUpperCase().includes('#EXT#')) return true;
  const idp = stringClaim(claims, 'idp');
  if (idp && idp !== stringClaim(claims, 'iss')) return true;
  const acct = claims.acct;
  return acct === 1 || acct === '1';
}

export function entraAddress(claims: Record<string, unknown>, rules: EntraRules): EntraAddress {
  const signInName = stringClaim(claims, 'upn') ?? stringClaim(claims, 'preferred_username');
  const email = stringClaim(claims, 'email');
  const candidate = email ?? signInName;
  const address = candidate?.includes('@') && !candidate.toUpperCase().includes('#EXT#') ? candidate : null;
  if (!address) return { address: null, verified: false };
  if (rules.emailVerified !== null) return { address, verified: rules.emailVerified };
  if (trueClaim(claims, 'xms_edov')) return { address, verified: true };
  if (MULTI_TENANT.has(rules.tenant)) return { address, verified: false };
  const tid = stringClaim(claims, 'tid')?.toLowerCase();
  if (tid !== rules.tenant || isGuest(claims, signInName)) return { address, verified: false };
  const verified = !!signInName?.includes('@') && domainOf(signInName) === domainOf(address);
  return { address, verified };
}
