import { z } from '@hono/zod-openapi';

/** Users admin and allowed email domains (documented: listUsers … deleteAllowedDomain). */

const RoleLevel = z
  .union([z.literal(10), z.literal(20), z.literal(30), z.literal(40), z.literal(50)])
  .openapi({ description: 'Role level: 10 Subscriber, 20 Contributor, 30 Author, 40 Editor, 50 Admin' });

export const UserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.number().int().openapi({ description: 'Role level (10–50)' }),
    roleName: z.string().openapi({ example: 'editor' }),
    disabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastSignInAt: z.string().nullable(),
    passkeyCount: z.number().int(),
  })
  .openapi('User');

export const UserIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const ListUsersQuerySchema = z.object({
  cursor: z.string().max(500).optional().openapi({ description: "The previous page's nextCursor, unchanged" }),
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: '1 to 100, default 50' }),
  search: z.string().max(200).optional().openapi({ description: 'Part of the email address or name' }),
  role: z.coerce
    .number()
    .int()
    .refine((v) => [10, 20, 30, 40, 50].includes(v), 'role must be one of 10, 20, 30, 40, 50')
    .optional(),
});

export const UserListSchema = z
  .object({ items: z.array(UserSchema), nextCursor: z.string().optional() })
  .openapi('UserList');

export const UpdateUserBody = z
  .object({
    name: z.string().max(200).nullable().optional(),
    role: RoleLevel.optional(),
  })
  .strict()
  .openapi('UpdateUserRequest', {
    description: 'Nobody raises their own role; the last enabled Admin cannot be demoted',
  });

export const AllowedDomainSchema = z
  .object({
    domain: z.string().openapi({ example: 'example.com' }),
    defaultRole: z.number().int(),
    defaultRoleName: z.string(),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('AllowedDomain');

const SignupRole = z
  .union([z.literal(10), z.literal(20), z.literal(30), z.literal(40)])
  .openapi({ description: 'Role given to people who sign up with this domain; at most Editor (40)' });

export const CreateAllowedDomainBody = z
  .object({ domain: z.string().min(3).max(253), defaultRole: SignupRole })
  .strict()
  .openapi('CreateAllowedDomainRequest');

export const UpdateAllowedDomainBody = z
  .object({ defaultRole: SignupRole.optional(), enabled: z.boolean().optional() })
  .strict()
  .openapi('UpdateAllowedDomainRequest');

export const DomainParams = z.object({
  domain: z
    .string()
    .min(3)
    .max(253)
    .openapi({ param: { name: 'domain', in: 'path' } }),
});

export const DeletedFlag = z.object({ deleted: z.literal(true) });
