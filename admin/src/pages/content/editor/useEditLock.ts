import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { LockState } from '../../../api/content';

const RENEW_MS = 2 * 60_000;

/**
 * The edit lock of an open entry: taken when the editor opens (with a token
 * for this tab), renewed every two minutes while the page stays open (the
 * lease is 7 minutes), released on leaving. When someone else holds it the
 * editor turns read-only and offers to take over.
 */
export function useEditLock(collection: string, id: string | null, enabled: boolean) {
  const [state, setState] = useState<LockState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const token = useRef(`tab-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`);
  const queryClient = useQueryClient();

  const acquire = useCallback(
    async (takeover = false) => {
      if (!id) return;
      try {
        const s = await unwrap(
          api.POST('/content/{collection}/{id}/lock', {
            params: { path: { collection, id } },
            body: { token: token.current, ...(takeover ? { takeover: true } : {}) },
          }),
        );
        setState(s);
        setError(null);
        if (takeover) await queryClient.invalidateQueries({ queryKey: ['content', collection, 'entry', id] });
      } catch (err) {
        setError(err);
      }
    },
    [collection, id, queryClient],
  );

  useEffect(() => {
    if (!enabled || !id) return;
    acquire();
    const timer = setInterval(() => acquire(), RENEW_MS);
    // Leaving the entry frees it for others at once (the lease would expire anyway),
    // also when the tab closes or navigates away (keepalive outlives the page).
    const release = () => {
      api
        .DELETE('/content/{collection}/{id}/lock', {
          params: { path: { collection, id }, query: { token: token.current } },
          keepalive: true,
        })
        .catch(() => undefined);
    };
    window.addEventListener('pagehide', release);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', release);
      release();
    };
  }, [enabled, id, collection, acquire]);

  const heldByOther = Boolean(state?.enabled && !state.heldByCaller && state.holder);
  return { state, error, heldByOther, takeOver: () => acquire(true), refresh: () => acquire() };
}
