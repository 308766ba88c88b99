import { useState } from 'react';
import { fromParagraphs, toParagraphs } from '../lib/portable-text';
import { TextAreaField } from './Field';

/**
 * Portable Text for sections and rich-text widgets: plain paragraphs when the
 * content is simple, its JSON when it carries formatting the paragraph editor
 * would drop. The shared rich-text editor of entries can take this place.
 */
export function RichTextField({
  label,
  value,
  onValue,
  error,
}: {
  label: string;
  value: unknown[];
  onValue: (blocks: unknown[]) => void;
  error?: string;
}) {
  const simple = toParagraphs(value);
  const [mode, setMode] = useState<'text' | 'json'>(simple === null ? 'json' : 'text');
  const [text, setText] = useState(simple ?? '');
  const [json, setJson] = useState(JSON.stringify(value, null, 2));
  const [jsonError, setJsonError] = useState<string | undefined>();
  return (
    <div className="stack">
      {mode === 'text' ? (
        <TextAreaField
          label={label}
          hint="Separate paragraphs with an empty line."
          rows={8}
          value={text}
          onValue={(v) => {
            setText(v);
            onValue(fromParagraphs(v));
          }}
          error={error}
        />
      ) : (
        <TextAreaField
          label={`${label} (Portable Text JSON)`}
          hint={
            simple === null
              ? 'This content has formatting the paragraph editor cannot keep, so it is edited as Portable Text.'
              : 'An array of Portable Text blocks.'
          }
          rows={12}
          spellCheck={false}
          value={json}
          onValue={(v) => {
            setJson(v);
            try {
              const parsed: unknown = JSON.parse(v);
              if (!Array.isArray(parsed)) throw new Error('not an array');
              setJsonError(undefined);
              onValue(parsed);
            } catch {
              setJsonError('Enter a JSON array of blocks.');
            }
          }}
          error={jsonError ?? error}
        />
      )}
      <div className="actions">
        {mode === 'text' ? (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              setJson(JSON.stringify(fromParagraphs(text), null, 2));
              setMode('json');
            }}
          >
            Edit as Portable Text
          </button>
        ) : simple !== null || toParagraphs(safeParse(json)) !== null ? (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              setText(toParagraphs(safeParse(json)) ?? '');
              setMode('text');
            }}
          >
            Edit as paragraphs
          </button>
        ) : null}
      </div>
    </div>
  );
}

function safeParse(json: string): unknown[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
