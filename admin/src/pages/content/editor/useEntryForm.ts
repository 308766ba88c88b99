import { useCallback, useRef, useState } from 'react';
import type { FormState } from './form';

export type Unfinished = Record<string, string>;

/**
 * The entry form as the editor holds it. Every change is written to a ref at once, as well as to
 * React state, so a save that starts right after a keystroke (button, shortcut, publish, schedule,
 * autosave, leaving the page) reads what is on screen rather than the last rendered state. Inputs
 * whose text is not a value yet (JSON that does not parse …) report it as unfinished, by path:
 * it counts as an unsaved change and stops saves until it is fixed. The Sections and Widget areas
 * pages hold their forms (`T`, given its first value) in it too.
 */
export function useEntryForm<T = FormState>(initial: T | null = null) {
  const [form, setForm] = useState<T | null>(initial);
  const formRef = useRef<T | null>(initial);
  const [unfinished, setUnfinished] = useState<Unfinished>({});
  const unfinishedRef = useRef<Unfinished>({});

  /** Replace the whole form (a load, a save's answer, a resolved conflict). */
  const put = useCallback((next: T) => {
    formRef.current = next;
    setForm(next);
  }, []);
  /** Change part of the form, from its newest value. */
  const update = useCallback(
    (fn: (cur: T) => T) => {
      if (formRef.current) put(fn(formRef.current));
    },
    [put],
  );
  const reportUnfinished = useCallback((path: string, problem: string | null) => {
    const cur = unfinishedRef.current;
    if ((cur[path] ?? null) === problem) return;
    const next = { ...cur };
    if (problem) next[path] = problem;
    else delete next[path];
    unfinishedRef.current = next;
    setUnfinished(next);
  }, []);

  return {
    form,
    unfinished,
    put,
    update,
    reportUnfinished,
    /** The form now, including changes not rendered yet. */
    current: useCallback(() => formRef.current, []),
    /** The unfinished inputs now. */
    unfinishedNow: useCallback(() => unfinishedRef.current, []),
  };
}
