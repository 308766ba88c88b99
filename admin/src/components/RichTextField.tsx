import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import type { FieldLike } from '../api/content';
import { EditorContext, type EditorContextValue } from '../pages/content/fields/context';
import { Spinner } from './Feedback';
import { TextAreaField } from './Field';

// The entries' rich-text editor, loaded with the first screen that needs it.
const PortableTextInput = lazy(() => import('../pages/content/fields/PortableTextInput'));

/**
 * Portable Text for sections and rich-text widgets, in the same editor as
 * entries' rich-text fields (styles, marks, lists, links, images from the
 * media library). Content the editor does not know round-trips unchanged; its
 * JSON stays one click away for anything the toolbar cannot express.
 *
 * Text that is not a value yet (JSON that does not parse or is not an array, an address refused
 * inside an image) is reported to the page with `reportUnfinished` under `path`, as the entry
 * editor's inputs report it: the page refuses to save until it is fixed.
 */
export function RichTextField({
  label,
  value,
  onValue,
  path,
  reportUnfinished,
  error,
  disabled = false,
}: {
  label: string;
  value: unknown[];
  onValue: (blocks: unknown[]) => void;
  /** Where the value sits in the page's form (`content`, `settings.content`). */
  path: string;
  reportUnfinished: (path: string, problem: string | null) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [mode, setMode] = useState<'rich' | 'json'>('rich');
  // A new editor mounts after JSON edits: it takes its value only when it mounts.
  const [generation, setGeneration] = useState(0);
  const [json, setJson] = useState('');
  const [jsonError, setJsonError] = useState<string | undefined>();
  // Shown here and reported as it is typed (a save may follow at once); withdrawn when the field goes.
  useEffect(() => () => reportUnfinished(path, null), [reportUnfinished, path]);
  const problem = (message: string | undefined) => {
    setJsonError(message);
    reportUnfinished(path, message ?? null);
  };
  const ctx: EditorContextValue = useMemo(
    () => ({
      collection: '',
      entryId: null,
      locale: '',
      // Sections and widgets hold text, links and images; the site's block types belong to entries.
      blockTypes: [],
      issues: {},
      refs: {},
      setRefs: () => {},
      reportUnfinished,
      readOnly: disabled,
    }),
    [disabled, reportUnfinished],
  );
  const field = { slug: `rt-${id}`, label, type: 'portableText', required: false } as unknown as FieldLike;
  return (
    <div className="stack">
      {mode === 'rich' ? (
        <div className={error ? 'field field--invalid' : 'field'}>
          <span className="field__label" id={`${id}-label`}>
            {label}
          </span>
          <EditorContext.Provider value={ctx}>
            <Suspense fallback={<Spinner label="Loading the editor…" />}>
              <PortableTextInput
                key={generation}
                field={field}
                value={value}
                onChange={(v) => onValue(Array.isArray(v) ? v : [])}
                path={path}
                id={id}
                describedBy={error ? `${id}-error` : undefined}
                invalid={Boolean(error)}
                disabled={disabled}
              />
            </Suspense>
          </EditorContext.Provider>
          {error ? (
            <p id={`${id}-error`} className="field__error">
              <span aria-hidden="true">⚠ </span>
              {error}
            </p>
          ) : null}
        </div>
      ) : (
        <TextAreaField
          label={`${label} (Portable Text JSON)`}
          hint="An array of Portable Text blocks."
          rows={12}
          spellCheck={false}
          value={json}
          disabled={disabled}
          onValue={(v) => {
            setJson(v);
            let parsed: unknown;
            try {
              parsed = JSON.parse(v);
            } catch (err) {
              problem(`JSON syntax: ${err instanceof Error ? err.message : 'not valid JSON'}`);
              return;
            }
            if (!Array.isArray(parsed)) {
              problem('Enter a JSON array of blocks.');
              return;
            }
            problem(undefined);
            onValue(parsed);
          }}
          error={jsonError ?? error}
        />
      )}
      {disabled ? null : (
        <div className="actions">
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={mode === 'json' && Boolean(jsonError)}
            onClick={() => {
              if (mode === 'rich') {
                setJson(JSON.stringify(value, null, 2));
                problem(undefined);
                setMode('json');
              } else {
                setGeneration((g) => g + 1);
                setMode('rich');
              }
            }}
          >
            {mode === 'rich' ? 'Edit as Portable Text JSON' : 'Back to the editor'}
          </button>
        </div>
      )}
    </div>
  );
}
