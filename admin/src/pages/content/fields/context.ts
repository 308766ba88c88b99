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
  /**
   * An input whose text is not a value yet (JSON that does not parse, an unsafe address) says so
   * here, keyed by its path; `null` when it is a value again. The form counts it as an unsaved
   * change and refuses to save until it is fixed, so what is stored is never older than what is shown.
   */
  reportUnfinished: (path: string, problem: string | null) => void;
  readOnly: boolean;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditorContext(): EditorContextValue {
  const ctx = useContext(EditorContext);
  if (!ctx) throw new Error('EditorContext is missing');
  return ctx;
}
