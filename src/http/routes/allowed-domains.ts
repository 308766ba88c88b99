import {
  createAllowedDomain,
  deleteAllowedDomain,
  listAllowedDomains,
  updateAllowedDomain,
} from '../../operations/auth.js';
import { type Api, route } from '../op.js';

/** Allowed email domains for self-service sign-up (Admin role). */
export function allowedDomainRoutes(api: Api): void {
  const tags = ['Users'];

  route(api, {
    operation: listAllowedDomains,
    method: 'get',
    path: '/admin/allowed-domains',
    summary: 'List the email domains people may sign up with',
    tags,
  });
  route(api, {
    operation: createAllowedDomain,
    method: 'post',
    path: '/admin/allowed-domains',
    summary: 'Allow sign-up for an email domain, with a default role (at most Editor)',
    tags,
    status: 201,
  });
  route(api, {
    operation: updateAllowedDomain,
    method: 'put',
    path: '/admin/allowed-domains/{domain}',
    summary: 'Change the default role of a domain, or enable / disable it',
    tags,
  });
  route(api, {
    operation: deleteAllowedDomain,
    method: 'delete',
    path: '/admin/allowed-domains/{domain}',
    summary: 'Stop allowing sign-up for a domain (existing users stay)',
    tags,
  });
}
