import { useState } from 'react';
import type { CollectionModel } from '../../../api/content';
import { Button } from '../../../components/Button';
import { formatDateTime } from '../../../lib/format';
import { changedKeys, type FormState } from './form';

const show = (v: unknown): string => {
  if (v === undefined || v === null || v === '') return '(empty)';
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 1);
};

function valueFor(s: FormState, key: string, c: CollectionModel): unknown {
  if (key === 'slug') return s.slug;
  if (key === 'bylines') return s.credits.map((x) => x.byline.displayName).join(', ');
  const f = c.fields.find((x) => x.slug === key);
  if (f?.type === 'reference' && typeof f.validation?.targetCollection === 'string') {
    return (s.refs[key] ?? []).map((x) => x.title || x.slug || x.id).join(', ');
  }
  if (f?.type === 'portableText' && Array.isArray(s.data[key])) {
    return (s.data[key] as Array<{ children?: Array<{ text?: string }> }>)
      .map((b) => (b.children ?? []).map((x) => x.text ?? '').join(''))
      .join('\n');
  }
  return s.data[key];
}

/**
 * Someone saved this entry after it was opened. Both versions are shown
 * field by field; the person picks, per field, which one to keep. Nothing is
 * written until they choose, and their own text is never dropped silently.
 */
export function ConflictView({
  c,
  mine,
  theirs,
  theirsAt,
  onResolve,
  onCancel,
}: {
  c: CollectionModel;
  mine: FormState;
  theirs: FormState;
  theirsAt: string;
  onResolve: (merged: FormState) => void;
  onCancel: () => void;
}) {
  const keys = changedKeys(c, theirs, mine);
  const [pick, setPick] = useState<Record<string, 'mine' | 'theirs'>>(() =>
    Object.fromEntries(keys.map((k) => [k, 'mine'])),
  );
  const label = (k: string) =>
    k === 'slug' ? 'Slug' : k === 'bylines' ? 'Bylines' : (c.fields.find((f) => f.slug === k)?.label ?? k);

  function merged(): FormState {
    const out: FormState = {
      data: { ...theirs.data },
      slug: theirs.slug,
      refs: { ...theirs.refs },
      credits: theirs.credits,
    };
    for (const k of keys) {
      if (pick[k] !== 'mine') continue;
      if (k === 'slug') out.slug = mine.slug;
      else if (k === 'bylines') out.credits = mine.credits;
      else if (k in mine.refs) out.refs[k] = mine.refs[k];
      else out.data[k] = mine.data[k];
    }
    return out;
  }

  return (
    <section className="card conflict" aria-labelledby="conflict-title" role="alertdialog">
      <h2 id="conflict-title" className="card__title">
        This entry changed while you were editing
      </h2>
      <p className="card__lead">
        Someone saved a newer version at {formatDateTime(theirsAt)}. Choose, for each field that differs, which version
        to keep. Nothing is saved until you confirm.
      </p>
      {keys.length === 0 ? <p>Your changes and theirs are the same: saving again keeps both.</p> : null}
      <div className="conflict__rows">
        {keys.map((k) => (
          <fieldset key={k} className="conflict__row">
            <legend className="field__label">{label(k)}</legend>
            <label className={pick[k] === 'mine' ? 'conflict__side conflict__side--on' : 'conflict__side'}>
              <input
                type="radio"
                name={`pick-${k}`}
                checked={pick[k] === 'mine'}
                onChange={() => setPick({ ...pick, [k]: 'mine' })}
              />
              <span className="conflict__who">Your version</span>
              <pre className="conflict__value">{show(valueFor(mine, k, c))}</pre>
            </label>
            <label className={pick[k] === 'theirs' ? 'conflict__side conflict__side--on' : 'conflict__side'}>
              <input
                type="radio"
                name={`pick-${k}`}
                checked={pick[k] === 'theirs'}
                onChange={() => setPick({ ...pick, [k]: 'theirs' })}
              />
              <span className="conflict__who">Saved version</span>
              <pre className="conflict__value">{show(valueFor(theirs, k, c))}</pre>
            </label>
          </fieldset>
        ))}
      </div>
      <div className="actions">
        <Button variant="primary" onClick={() => onResolve(merged())}>
          Save with these choices
        </Button>
        <Button onClick={() => onResolve(theirs)}>Discard my changes</Button>
        <Button variant="ghost" onClick={onCancel}>
          Decide later
        </Button>
      </div>
    </section>
  );
}
