import { type BlockObjectRenderProps, useEditor } from '@portabletext/editor';
import { createContext, useContext, useEffect, useId, useState } from 'react';
import { checkUrl } from '../../../../../src/services/fields/url';
import type { FieldLike } from '../../../api/content';
import { Button } from '../../../components/Button';
import { MediaChooser } from '../../../components/media/MediaChooser';
import { blockFields } from './blockFields';
import { useEditorContext } from './context';
import { mediaValue } from './MediaInput';

type Obj = Record<string, unknown> & { _key: string; _type: string };

/** Path of the rich text field the objects sit in: their unfinished values are reported under it. */
export const PtFieldPath = createContext('');

/** An image or a custom block inside rich text: a card with its values, edited in place. */
export function BlockObjectView(props: BlockObjectRenderProps) {
  const node = props.node as Obj;
  const editor = useEditor();
  const ctx = useEditorContext();
  const fieldPath = useContext(PtFieldPath);
  const [editing, setEditing] = useState(false);
  const type = ctx.blockTypes.find((b) => b.slug === node._type);
  const defs: FieldLike[] | undefined =
    node._type === 'image'
      ? [
          { slug: 'src', label: 'Image address', type: 'url' } as FieldLike,
          { slug: 'alt', label: 'Alternative text', type: 'string' } as FieldLike,
        ]
      : type
        ? blockFields(ctx.blockTypes, node._type, typeof node._version === 'number' ? node._version : undefined)
        : undefined;
  const title = node._type === 'image' ? 'Image' : (type?.label ?? `Block "${node._type}"`);
  const at = [{ _key: node._key }];
  return (
    <div {...props.attributes} className={props.selected ? 'pt-object pt-object--selected' : 'pt-object'}>
      {props.children}
      <div contentEditable={false} className="pt-object__card">
        <div className="pt-object__head">
          <strong>{title}</strong>
          {typeof node._version === 'number' ? <span className="pill">v{node._version}</span> : null}
          {ctx.readOnly ? null : (
            <span className="pt-object__tools">
              {defs ? (
                <Button size="small" variant="ghost" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
                  {editing ? 'Done' : 'Edit'}
                </Button>
              ) : null}
              <Button
                size="small"
                variant="ghost"
                className="button--quiet-danger"
                onClick={() => editor.send({ type: 'delete.block', at })}
              >
                Remove
              </Button>
            </span>
          )}
        </div>
        {node._type === 'image' ? (
          <MediaChooser
            mediaId={typeof node.id === 'string' && node.id && (node.provider ?? 'local') === 'local' ? node.id : null}
            fallbackLabel={typeof node.src === 'string' ? node.src : null}
            noun="image"
            accept={['image/*']}
            disabled={ctx.readOnly}
            onPick={(item) => {
              // The block keeps the image field's shape (id, provider, src …) so every reader treats both alike.
              const { _key, _type, ...previous } = node;
              const next = mediaValue('image', item, previous);
              const unset = Object.keys(previous).filter((k) => !(k in next));
              editor.send({ type: 'block.set', at, props: next });
              if (unset.length) editor.send({ type: 'block.unset', at, props: unset });
            }}
            onClear={() =>
              editor.send({ type: 'block.unset', at, props: ['id', 'provider', 'src', 'width', 'height', 'mimeType'] })
            }
          />
        ) : null}
        {/* Only same-site images preview: the admin's content security policy keeps other hosts out. */}
        {node._type === 'image' &&
        !node.id &&
        typeof node.src === 'string' &&
        node.src.startsWith('/') &&
        !checkUrl(node.src) ? (
          <img className="pt-object__img" src={node.src} alt={String(node.alt ?? '')} />
        ) : null}
        {!editing ? (
          <dl className="pt-object__values">
            {(defs ?? []).slice(0, 4).map((f) => (
              <div key={f.slug}>
                <dt>{f.label}</dt>
                <dd>{preview(node[f.slug])}</dd>
              </div>
            ))}
            {!defs ? <dd className="muted">Kept exactly as it is.</dd> : null}
          </dl>
        ) : (
          <div className="pt-object__form">
            {(defs ?? []).map((f) => (
              <SimpleInput
                key={f.slug}
                path={`${fieldPath}.${node._key}.${f.slug}`}
                field={f}
                value={node[f.slug]}
                onChange={(v) => editor.send({ type: 'block.set', at, props: { [f.slug]: v } })}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function preview(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 80)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return Array.isArray(v) ? `${v.length} item(s)` : 'set';
}

/** The scalar fields of a block inside rich text; richer ones are edited in a blocks field. */
function SimpleInput({
  field,
  value,
  onChange,
  path,
}: {
  field: FieldLike;
  value: unknown;
  onChange: (v: unknown) => void;
  path: string;
}) {
  const id = useId();
  const { reportUnfinished } = useEditorContext();
  const [text, setText] = useState(typeof value === 'string' ? value : value == null ? '' : String(value));
  const problem = field.type === 'url' && text ? checkUrl(text) : null;
  // An address refused as unsafe is not handed to the block: until it is fixed the form must not
  // save the old one as if it were this. Reported as typed, withdrawn when the input goes.
  useEffect(() => () => reportUnfinished(path, null), [reportUnfinished, path]);
  if (field.type === 'boolean') {
    return (
      <label className="check check--inline">
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <span>{field.label}</span>
      </label>
    );
  }
  if (!['string', 'text', 'url', 'number', 'integer', 'select', 'slug', 'datetime'].includes(field.type)) {
    return (
      <p className="field__hint">
        {field.label}: {preview(value)} (edit this block type in a blocks field)
      </p>
    );
  }
  const opts = Array.isArray(field.validation?.options) ? (field.validation?.options as string[]) : null;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {field.label}
      </label>
      {opts ? (
        <select
          id={id}
          className="input select input--small"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            onChange(e.target.value || null);
          }}
        >
          <option value="">—</option>
          {opts.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          className="input input--small"
          type={field.type === 'number' || field.type === 'integer' ? 'number' : 'text'}
          value={text}
          aria-invalid={Boolean(problem) || undefined}
          onChange={(e) => {
            setText(e.target.value);
            const raw = e.target.value;
            const refused = field.type === 'url' && raw ? checkUrl(raw) : null;
            reportUnfinished(path, refused ? `${field.label}: ${refused}` : null);
            if (field.type === 'number' || field.type === 'integer') onChange(raw === '' ? null : Number(raw));
            else if (!refused) onChange(raw === '' ? null : raw);
          }}
        />
      )}
      {problem ? <p className="field__error">{problem}</p> : null}
    </div>
  );
}
