import type { RoleLevel } from '../../../auth/roles.js';
import type { EdgeAccessConfig } from '../../../core/config-auth.js';

/**
 * The role the gateway's groups give: the first `roleMapping` entry (in the configured order)
 * whose group the user is in; `defaultRole` when none is. Group names are compared exactly.
 */
export function roleForGroups(
  config: Pick<EdgeAccessConfig, 'roleMapping' | 'defaultRole'>,
  groups: readonly string[],
): RoleLevel {
  const held = new Set(groups);
  for (const [group, role] of config.roleMapping) {
    if (held.has(group)) return role;
  }
  return config.defaultRole;
}
