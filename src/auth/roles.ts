/** The five roles. Each inherits everything the lower levels may do. */
export const ROLES = {
  SUBSCRIBER: 10,
  CONTRIBUTOR: 20,
  AUTHOR: 30,
  EDITOR: 40,
  ADMIN: 50,
} as const;

export type RoleName = keyof typeof ROLES;
export type RoleLevel = (typeof ROLES)[RoleName];

export const ROLE_NAMES: Record<RoleLevel, string> = {
  10: 'subscriber',
  20: 'contributor',
  30: 'author',
  40: 'editor',
  50: 'admin',
};

export const ROLE_LEVELS = Object.values(ROLES) as RoleLevel[];

export function isRoleLevel(value: unknown): value is RoleLevel {
  return typeof value === 'number' && (ROLE_LEVELS as number[]).includes(value);
}

/** Accepts `editor`, `EDITOR` or `40`. */
export function parseRole(input: string | number): RoleLevel | undefined {
  if (typeof input === 'number') return isRoleLevel(input) ? input : undefined;
  const trimmed = input.trim();
  if (/^\d+$/.test(trimmed)) return parseRole(Number(trimmed));
  const key = trimmed.toUpperCase() as RoleName;
  return Object.hasOwn(ROLES, key) ? ROLES[key] : undefined;
}
