import { z } from '@hono/zod-openapi';
import {
  AllowedDomainSchema,
  CreateAllowedDomainBody,
  DeletedFlag,
  DomainParams,
  UpdateAllowedDomainBody,
} from '../../schemas/users.js';
import { type Api, op } from '../op.js';

/** Allowed email domains for self-service sign-up (Admin role). */
export function allowedDomainRoutes(api: Api): void {
  const tags = ['Users'];

  op(
    api,
    {
      method: 'get',
      path: '/admin/allowed-domains',
      operationId: 'listAllowedDomains',
      summary: 'List the email domains people may sign up with',
      tags,
      response: z.object({ items: z.array(AllowedDomainSchema) }),
    },
    async ({ actor, services }) => ({ items: await services.auth.domains.list(actor) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/allowed-domains',
      operationId: 'createAllowedDomain',
      summary: 'Allow sign-up for an email domain, with a default role (at most Editor)',
      tags,
      body: CreateAllowedDomainBody,
      response: AllowedDomainSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.auth.domains.create(actor, body),
  );
  op(
    api,
    {
      method: 'put',
      path: '/admin/allowed-domains/{domain}',
      operationId: 'updateAllowedDomain',
      summary: 'Change the default role of a domain, or enable / disable it',
      tags,
      params: DomainParams,
      body: UpdateAllowedDomainBody,
      response: AllowedDomainSchema,
    },
    async ({ actor, services, params, body }) => services.auth.domains.update(actor, params.domain, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/admin/allowed-domains/{domain}',
      operationId: 'deleteAllowedDomain',
      summary: 'Stop allowing sign-up for a domain (existing users stay)',
      tags,
      params: DomainParams,
      response: DeletedFlag,
    },
    async ({ actor, services, params }) => {
      await services.auth.domains.remove(actor, params.domain);
      return { deleted: true as const };
    },
  );
}
