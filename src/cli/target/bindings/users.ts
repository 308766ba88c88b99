import { type Bindings, bind } from '../operations.js';
import type { Target } from '../types.js';

/** The user administration methods that are catalogue operations (the sign-in link stays in each target). */
export const USERS_OPERATIONS = {
  list: bind('listUsers', (query: object) => ({ query })),
  get: bind('getUser', (id: string) => ({ params: { id } })),
  update: bind('updateUser', (id: string, body: object) => ({ params: { id }, body })),
  disable: bind('disableUser', (id: string) => ({ params: { id } })),
  enable: bind('enableUser', (id: string) => ({ params: { id } })),
} satisfies Bindings<Target['users']>;
