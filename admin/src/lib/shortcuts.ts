import { useEffect, useRef } from 'react';

/**
 * Page-level keyboard shortcuts. `mod` means Ctrl (Cmd on macOS). Plain keys
 * (like "n") are ignored while typing in a field, modified ones are not.
 */
export interface Shortcut {
  key: string;
  mod?: boolean;
  shift?: boolean;
  run: () => void;
  /** Allowed while focus is in a text field (only sensible with `mod`). */
  inFields?: boolean;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export const modLabel = isMac ? '⌘' : 'Ctrl';

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export function useShortcuts(list: Shortcut[]): void {
  const ref = useRef(list);
  ref.current = list;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = isMac ? e.metaKey : e.ctrlKey;
      for (const s of ref.current) {
        if (e.key.toLowerCase() !== s.key.toLowerCase()) continue;
        if (Boolean(s.mod) !== mod || Boolean(s.shift) !== e.shiftKey || e.altKey) continue;
        if (typing(e.target) && !s.inFields) continue;
        e.preventDefault();
        s.run();
        return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
