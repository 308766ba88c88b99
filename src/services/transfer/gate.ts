import { CmsError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';

/**
 * The write gate while an import holds the site (spec: "While an import is
 * executing, and after it fails or is cancelled until it is abandoned, most
 * other write operations return 503 TRANSFER_IMPORT_IN_PROGRESS"; MCP rule
 * 8). The hold is one `_cms_meta` row (`transfer_import` → the import's ID),
 * written by execute in the transaction that starts the import and removed
 * when it completes or is abandoned; its primary key makes a second import's
 * execute fail. Each process reads it at most once a second, and at once
 * after a change it is told of (bus topic `transfer`).
 *
 * Which writes meet the hold and which stay open is stated in services/holds.ts.
 */
export const HOLD_KEY = 'transfer_import';
const CHECK_MS = 1_000;

export function importInProgress(importId: string): CmsError {
  return new CmsError(
    'TRANSFER_IMPORT_IN_PROGRESS',
    'A site import holds this site: writes wait until it completes or an administrator abandons it',
    { importId },
  );
}

export async function readHold(db: Kdb): Promise<string | null> {
  const row = await db.selectFrom('_cms_meta').select('value').where('key', '=', HOLD_KEY).executeTakeFirst();
  return row?.value ?? null;
}

export function importGate(ctx: ServiceContext) {
  let known: { hold: string | null; at: number } | null = null;
  ctx.bus.subscribe('transfer', () => {
    known = null;
  });

  async function hold(): Promise<string | null> {
    const now = Date.now();
    if (known && now - known.at < CHECK_MS) return known.hold;
    const value = await readHold(ctx.db);
    known = { hold: value, at: now };
    return value;
  }

  return {
    hold,
    /** Refuse with 503 while an import holds the site. */
    async check(): Promise<void> {
      const id = await hold();
      if (id) throw importInProgress(id);
    },
    forget(): void {
      known = null;
    },
  };
}

export type ImportGate = ReturnType<typeof importGate>;
