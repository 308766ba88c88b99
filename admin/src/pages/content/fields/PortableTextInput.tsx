import {
  type BlockObjectRenderProps,
  defineAnnotation,
  defineBlockObject,
  defineDecorator,
  defineTextBlock,
  EditorProvider,
  type PortableTextBlock,
  PortableTextEditable,
  useEditor,
  useEditorSelector,
} from '@portabletext/editor';
import { NodePlugin } from '@portabletext/editor/plugins';
import * as selectors from '@portabletext/editor/selectors';
import { memo, type ReactElement, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkUrl } from '../../../../../src/services/fields/url';
import { Button } from '../../../components/Button';
import { MediaPicker } from '../../../components/media/MediaPicker';
import { modLabel } from '../../../lib/shortcuts';
import { useRenderTiming } from '../../../lib/timing';
import { useEditorContext } from './context';
import type { InputProps } from './FieldInput';
import { mediaValue } from './MediaInput';
import { BlockObjectView, PtFieldPath } from './PortableTextObjects';
import { DECORATORS, LISTS, ptSchema, STYLES } from './pt-schema';

const textBlock = defineTextBlock({
  type: 'block',
  render: (props) => {
    const a = props.attributes;
    const node = props.node as { style?: string; listItem?: string; level?: number };
    const cls = node.listItem ? `pt-li pt-li--${node.listItem} pt-level-${node.level ?? 1}` : undefined;
    const inner = props.children;
    switch (node.style) {
      case 'h1':
        return (
          <h2 {...a} className={`pt-h1 ${cls ?? ''}`}>
            {inner}
          </h2>
        );
      case 'h2':
        return (
          <h3 {...a} className={`pt-h2 ${cls ?? ''}`}>
            {inner}
          </h3>
        );
      case 'h3':
        return (
          <h4 {...a} className={`pt-h3 ${cls ?? ''}`}>
            {inner}
          </h4>
        );
      case 'h4':
        return (
          <h5 {...a} className={`pt-h4 ${cls ?? ''}`}>
            {inner}
          </h5>
        );
      case 'blockquote':
        return (
          <blockquote {...a} className={cls}>
            {inner}
          </blockquote>
        );
      default:
        return (
          <div {...a} className={cls ?? 'pt-p'}>
            {inner}
          </div>
        );
    }
  },
});

const decoratorNodes = [
  defineDecorator({ type: 'strong', render: ({ children }) => <strong>{children}</strong> }),
  defineDecorator({ type: 'em', render: ({ children }) => <em>{children}</em> }),
  defineDecorator({ type: 'underline', render: ({ children }) => <u>{children}</u> }),
  defineDecorator({ type: 'code', render: ({ children }) => <code className="code">{children}</code> }),
  defineDecorator({ type: 'strike-through', render: ({ children }) => <s>{children}</s> }),
];

const linkNode = defineAnnotation({
  type: 'link',
  render: ({ annotation, children }) => (
    <span className="pt-link" title={String(annotation.href ?? '')}>
      {children}
    </span>
  ),
});

const BASE_NODES = [textBlock, ...decoratorNodes, linkNode];
const renderObject = (props: BlockObjectRenderProps): ReactElement => <BlockObjectView {...props} />;

/** Portable Text with marks, links, headings, lists, images and the site's block types. */
export default function PortableTextInput({ value, onChange, id, describedBy, disabled, field, path }: InputProps) {
  const ctx = useEditorContext();
  // The rich text editor loads on its own: its first render is measured apart from the form's.
  useRenderTiming('entry-editor-rich', true, 'entry-editor');
  // The schema and first value are fixed at mount; the form remounts the editor when the value is replaced.
  const [initial] = useState(() => (Array.isArray(value) ? (value as PortableTextBlock[]) : undefined));
  const schemaDefinition = useMemo(() => ptSchema(initial, ctx.blockTypes), [initial, ctx.blockTypes]);
  // The form re-renders with every keystroke; the editor below must not (it would re-render every block).
  const latest = useRef(onChange);
  latest.current = onChange;
  const onValue = useCallback((v: unknown) => latest.current(v), []);
  return (
    <div className="pt" data-testid={`pt-${field.slug}`}>
      <PtFieldPath.Provider value={path}>
        <RichEditor
          schemaDefinition={schemaDefinition}
          initial={initial}
          onValue={onValue}
          id={id}
          describedBy={describedBy}
          disabled={disabled}
          label={field.label}
        />
      </PtFieldPath.Provider>
    </div>
  );
}

const RichEditor = memo(function RichEditor({
  schemaDefinition,
  initial,
  onValue,
  id,
  describedBy,
  disabled,
  label,
}: {
  schemaDefinition: ReturnType<typeof ptSchema>;
  initial: PortableTextBlock[] | undefined;
  onValue: (v: unknown) => void;
  id: string;
  describedBy: string | undefined;
  disabled: boolean;
  label: string;
}) {
  // Registrations stay stable for the editor's lifetime (a new array would re-register on every render).
  const nodes = useMemo(
    () => [
      ...BASE_NODES,
      ...(schemaDefinition.blockObjects ?? []).map((b) => defineBlockObject({ type: b.name, render: renderObject })),
    ],
    [schemaDefinition],
  );
  return (
    <EditorProvider initialConfig={{ schemaDefinition, initialValue: initial, readOnly: disabled }}>
      <ValueRelay onValue={onValue} />
      <NodePlugin nodes={nodes} />
      {disabled ? null : <Toolbar label={label} />}
      <PortableTextEditable
        id={id}
        className="pt__editable input"
        aria-describedby={describedBy}
        aria-labelledby={`${id}-label`}
        aria-multiline="true"
        role="textbox"
        spellCheck
        renderPlaceholder={renderPlaceholder}
      />
    </EditorProvider>
  );
});

const renderPlaceholder = () => <span className="pt__placeholder">Start writing…</span>;

/**
 * Hands the editor's value to the form with every change, as it happens. The editor's own
 * `mutation` event waits until typing pauses (250 ms, or a 1 s timer): a save in that window
 * stored the text without its last words and then reported it saved. A `patch` event comes
 * synchronously with each change (and not for the normalising of a value that was only opened),
 * and the snapshot then holds the whole current value.
 */
function ValueRelay({ onValue }: { onValue: (value: unknown) => void }) {
  const editor = useEditor();
  useEffect(() => {
    const sub = editor.on('patch', () => onValue(editor.getSnapshot().context.value ?? []));
    return () => sub.unsubscribe();
  }, [editor, onValue]);
  return null;
}

function Toolbar({ label }: { label: string }) {
  const editor = useEditor();
  const ctx = useEditorContext();
  const style = useEditorSelector(editor, selectors.getActiveStyle);
  const list = useEditorSelector(editor, selectors.getActiveListItem);
  const linkActive = useEditorSelector(editor, selectors.isActiveAnnotation('link'));
  const active = useEditorSelector(
    editor,
    (snap) => DECORATORS.filter((d) => selectors.isActiveDecorator(d.name)(snap)).map((d) => d.name),
    (a, b) => a.join() === b.join(),
  );
  const [panel, setPanel] = useState<null | 'link' | 'image'>(null);
  const [picking, setPicking] = useState(false);
  const [href, setHref] = useState('');
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [blockChoice, setBlockChoice] = useState(ctx.blockTypes[0]?.slug ?? '');
  const send = (e: Parameters<typeof editor.send>[0]) => {
    editor.send(e);
    editor.send({ type: 'focus' });
  };

  function addLink() {
    const err = checkUrl(href.trim());
    if (err) {
      setProblem(err);
      return;
    }
    send({ type: 'annotation.add', annotation: { name: 'link', value: { href: href.trim() } } });
    setPanel(null);
    setHref('');
    setProblem(null);
  }
  function addImage() {
    const err = src.trim() ? checkUrl(src.trim()) : 'Enter the image address.';
    if (err) {
      setProblem(err);
      return;
    }
    send({ type: 'insert.block', block: { _type: 'image', src: src.trim(), alt: alt.trim() }, placement: 'auto' });
    setPanel(null);
    setSrc('');
    setAlt('');
    setProblem(null);
  }

  return (
    <div className="pt__toolbar" role="toolbar" aria-label={`${label} formatting`}>
      <label className="visually-hidden" htmlFor={`${label}-style`}>
        Text style
      </label>
      <select
        id={`${label}-style`}
        className="input select input--small pt__style"
        value={style ?? 'normal'}
        onChange={(e) => send({ type: 'style.toggle', style: e.target.value })}
      >
        {STYLES.map((s) => (
          <option key={s.name} value={s.name}>
            {s.title}
          </option>
        ))}
      </select>
      {DECORATORS.map((d) => (
        <button
          key={d.name}
          type="button"
          className={active.includes(d.name) ? 'pt__btn pt__btn--on' : 'pt__btn'}
          aria-pressed={active.includes(d.name)}
          title={`${d.title} (${modLabel}+${d.key.toUpperCase()})`}
          aria-label={d.title}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => send({ type: 'decorator.toggle', decorator: d.name })}
        >
          {d.short}
        </button>
      ))}
      {LISTS.map((l) => (
        <button
          key={l.name}
          type="button"
          className={list === l.name ? 'pt__btn pt__btn--on' : 'pt__btn'}
          aria-pressed={list === l.name}
          aria-label={l.title}
          title={l.title}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => send({ type: 'list item.toggle', listItem: l.name })}
        >
          {l.name === 'bullet' ? '•' : '1.'}
        </button>
      ))}
      {linkActive ? (
        <button
          type="button"
          className="pt__btn"
          onClick={() => send({ type: 'annotation.remove', annotation: { name: 'link' } })}
        >
          Unlink
        </button>
      ) : (
        <button
          type="button"
          className="pt__btn"
          aria-expanded={panel === 'link'}
          onClick={() => setPanel(panel === 'link' ? null : 'link')}
        >
          Link
        </button>
      )}
      <button
        type="button"
        className="pt__btn"
        aria-expanded={panel === 'image'}
        onClick={() => setPanel(panel === 'image' ? null : 'image')}
      >
        Image
      </button>
      {ctx.blockTypes.length ? (
        <span className="pt__blocks">
          <label className="visually-hidden" htmlFor={`${label}-block`}>
            Block to insert
          </label>
          <select
            id={`${label}-block`}
            className="input select input--small"
            value={blockChoice}
            onChange={(e) => setBlockChoice(e.target.value)}
          >
            {ctx.blockTypes.map((b) => (
              <option key={b.slug} value={b.slug}>
                {b.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="pt__btn"
            onClick={() => {
              const t = ctx.blockTypes.find((b) => b.slug === blockChoice);
              if (t)
                send({ type: 'insert.block', block: { _type: t.slug, _version: t.activeVersion }, placement: 'auto' });
            }}
          >
            Insert block
          </button>
        </span>
      ) : null}
      {panel === 'link' ? (
        <div className="pt__panel">
          <label className="field__label" htmlFor={`${label}-href`}>
            Link address
          </label>
          <input
            id={`${label}-href`}
            className="input input--small"
            value={href}
            placeholder="https://example.com, /a-page, mailto:…"
            onChange={(e) => setHref(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addLink();
              }
              if (e.key === 'Escape') setPanel(null);
            }}
          />
          <Button size="small" variant="primary" onClick={addLink}>
            Add link
          </Button>
          <p className="field__hint">Select the text to link first.</p>
          {problem ? <p className="field__error">{problem}</p> : null}
        </div>
      ) : null}
      <MediaPicker
        open={picking}
        onClose={() => setPicking(false)}
        accept={['image/*']}
        title="Insert an image"
        onSelect={([item]) => {
          if (!item) return;
          // The block takes the image field's shape, so it reads like an image field value.
          send({
            type: 'insert.block',
            block: { _type: 'image', ...mediaValue('image', item, null) },
            placement: 'auto',
          });
          setPanel(null);
        }}
      />
      {panel === 'image' ? (
        <div className="pt__panel">
          <Button size="small" variant="primary" onClick={() => setPicking(true)}>
            Choose from the media library
          </Button>
          <label className="field__label" htmlFor={`${label}-src`}>
            Or an image address
          </label>
          <input
            id={`${label}-src`}
            className="input input--small"
            value={src}
            onChange={(e) => setSrc(e.target.value)}
          />
          <label className="field__label" htmlFor={`${label}-alt`}>
            Alternative text
          </label>
          <input
            id={`${label}-alt`}
            className="input input--small"
            value={alt}
            onChange={(e) => setAlt(e.target.value)}
          />
          <Button size="small" onClick={addImage}>
            Insert image by address
          </Button>
          {problem ? <p className="field__error">{problem}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
