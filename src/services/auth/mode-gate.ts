import type { CmsConfig } from '../../core/config.js';
import { authMode, type GatedFeature, requireAuthFeature } from '../../core/config-auth.js';

type AsyncFn = (...args: never[]) => Promise<unknown>;

/**
 * For a site's configuration, a gate: `gate(feature, ops, names)` gives the same operations with
 * `names` refusing (409 AUTH_MODE_UNAVAILABLE) while the configured authentication mode does not
 * offer `feature`. Applied where the auth service is put together, so every door (REST, CLI)
 * meets the same refusal and what a mode takes away is listed in one place.
 */
export function featureGate(config: Pick<CmsConfig, 'auth'>) {
  return function gate<T extends { [K in N]: AsyncFn }, N extends keyof T>(
    feature: GatedFeature,
    ops: T,
    names: readonly N[],
  ): T {
    if (authMode(config) === 'default') return ops;
    const gated = { ...ops };
    for (const name of names) {
      const run = ops[name];
      gated[name] = (async (...args: never[]) => {
        requireAuthFeature(config, feature);
        return run(...args);
      }) as T[N];
    }
    return gated;
  };
}
