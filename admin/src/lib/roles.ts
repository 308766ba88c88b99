/** The five roles of the service (spec "Roles"); each inherits the lower levels. */
export const ROLES = [
  { level: 10, name: 'Subscriber', hint: 'Reads published content.' },
  { level: 20, name: 'Contributor', hint: 'Writes drafts; needs approval to publish.' },
  { level: 30, name: 'Author', hint: 'Writes and publishes own content.' },
  { level: 40, name: 'Editor', hint: 'Manages all content.' },
  { level: 50, name: 'Admin', hint: 'Full access, including users and settings.' },
] as const;

export type RoleLevel = (typeof ROLES)[number]['level'];

export const ADMIN = 50;
/** Editors and up manage search indexes (search:manage). */
export const EDITOR = 40;

/** Allowed email domains give at most Editor: nobody becomes an Admin by signing up. */
export const SIGNUP_ROLES = ROLES.filter((r) => r.level !== ADMIN) as readonly {
  level: Exclude<RoleLevel, 50>;
  name: string;
  hint: string;
}[];

export function toRoleLevel(value: string | number): RoleLevel {
  const level = Number(value);
  const found = ROLES.find((r) => r.level === level);
  if (!found) throw new Error(`Unknown role level ${value}`);
  return found.level;
}

export function roleName(level: number): string {
  return ROLES.find((r) => r.level === level)?.name ?? `Level ${level}`;
}
