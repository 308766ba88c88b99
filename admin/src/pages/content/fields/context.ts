import { createContext, useContext } from 'react';
import type { BlockType, LinkedEntry } from '../../../api/content';

/** What nested inputs need from the editor around them. */
export interface EditorContextValue {
  collection: string;
  entryId: string | null;
  locale: string;
  blockTypes: BlockType[];
  /** Field issues keyed by path (`field`, `field.0.sub`). */
  issues: Record<string, string>;
  /** Linked entries of relation-bound reference fields. */
  refs: Record<string, LinkedEntry[]>;
  setRefs: (field: string, next: LinkedEntry[]) => void;
  readOnly: boolean;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditorContext(): EditorContextValue {
  const ctx = useContext(EditorContext);
  if (!ctx) throw new Error('EditorContext is missing');
  return ctx;
}
