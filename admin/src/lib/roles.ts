/** The five roles of the service (spec "Roles"); each inherits the lower levels. */
export const ROLES = [
  { level: 10, name: 'Subscriber', hint: 'Reads published content.' },
  { level: 20, name: 'Contributor', hint: 'Writes drafts; needs approval to publish.' },
  { level: 30, name: 'Author', hint: 'Writes and publishes own content.' },
  { level: 40, name: 'Editor', hint: 'Manages all content.' },
  { level: 50, name: 'Admin', hint: 'Full access, including users and settings.' },
] as const;

export const ADMIN = 50;

export function roleName(level: number): string {
  return ROLES.find((r) => r.level === level)?.name ?? `Level ${level}`;
}
