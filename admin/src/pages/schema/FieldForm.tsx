import { type FormEvent, useState } from 'react';
import type { BlockType, FieldDef, FieldInput, FieldType } from '../../api/content';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { BLOCK_FIELD_TYPES, FIELD_TYPES, INDEXABLE, JSON_STORED, SEARCHABLE } from '../../lib/fieldTypes';
import { issueFor, otherIssues } from '../../lib/forms';
import { type SubField, SubFieldsEditor } from './SubFieldsEditor';

type V = Record<string, unknown>;
const numOrUndef = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? undefined : Number(s));
const lines = (s: string) =>
  s
    .split(/\n|,/)
    .map((x) => x.trim())
    .filter(Boolean);
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * Every property of a field of any of the 17 types: the common flags (offered
 * only where the type allows them, with the reason otherwise), the type's
 * validation and options, and a default value.
 */
export function FieldForm({
  initial,
  context = 'collection',
  collections,
  blockTypes,
  onSubmit,
  onCancel,
  busy,
  error,
  submitLabel,
}: {
  initial?: FieldDef | FieldInput;
  context?: 'collection' | 'block';
  collections: Array<{ slug: string; label: string }>;
  blockTypes: BlockType[];
  onSubmit: (body: FieldInput) => void;
  onCancel?: () => void;
  busy?: boolean;
  error?: unknown;
  submitLabel: string;
}) {
  const editing = Boolean(initial);
  const v0 = (initial?.validation ?? {}) as V;
  const o0 = (initial?.options ?? {}) as V;
  const [type, setType] = useState<FieldType>((initial?.type as FieldType) ?? 'string');
  const [label, setLabel] = useState(initial?.label ?? '');
  const [slug, setSlug] = useState(initial?.slug ?? '');
  const [flags, setFlags] = useState({
    required: initial?.required ?? false,
    unique: initial?.unique ?? false,
    searchable: initial?.searchable ?? false,
    indexed: initial?.indexed ?? false,
    translatable: initial?.translatable ?? true,
  });
  const [minLength, setMinLength] = useState(str(v0.minLength));
  const [maxLength, setMaxLength] = useState(str(v0.maxLength));
  const [pattern, setPattern] = useState(str(v0.pattern));
  const [min, setMin] = useState(str(v0.min));
  const [max, setMax] = useState(str(v0.max));
  const [choices, setChoices] = useState(Array.isArray(v0.options) ? (v0.options as string[]).join('\n') : '');
  const [mimes, setMimes] = useState(
    Array.isArray(v0.allowedMimeTypes) ? (v0.allowedMimeTypes as string[]).join(', ') : '',
  );
  const [darkVariant, setDarkVariant] = useState(o0.darkVariant === true);
  const [rows, setRows] = useState(str(o0.rows));
  const [target, setTarget] = useState(str(v0.targetCollection));
  const [multiple, setMultiple] = useState(v0.multiple === true);
  const [relation, setRelation] = useState(v0.targetCollection ? '' : str(v0.relation));
  const [allowMultiple, setAllowMultiple] = useState(o0.allowMultiple === true);
  const [minItems, setMinItems] = useState(str(v0.minItems));
  const [maxItems, setMaxItems] = useState(str(v0.maxItems));
  const [subFields, setSubFields] = useState<SubField[]>((v0.subFields as SubField[]) ?? []);
  const [allowed, setAllowed] = useState<string[]>((v0.allowedTypes as string[]) ?? []);
  const [widget, setWidget] = useState(initial?.widget ?? '');
  const [defaultText, setDefaultText] = useState(
    initial?.defaultValue === undefined ? '' : JSON.stringify(initial.defaultValue),
  );
  const [local, setLocal] = useState<string | null>(null);

  const types = context === 'block' ? FIELD_TYPES.filter((t) => BLOCK_FIELD_TYPES.includes(t.type)) : FIELD_TYPES;
  const isBlocks = type === 'blocks';
  const inBlock = context === 'block';
  const relationBound = type === 'reference' && Boolean(target || relation);
  const can = {
    required: !isBlocks,
    unique: !isBlocks && !inBlock && !JSON_STORED.has(type) && !relationBound,
    searchable: !isBlocks && !inBlock && SEARCHABLE.has(type),
    indexed: !isBlocks && !inBlock && INDEXABLE.has(type) && !relationBound,
  };

  function build(): FieldInput | null {
    const validation: V = {};
    const options: V = {};
    if (['string', 'text', 'slug'].includes(type)) {
      if (numOrUndef(minLength) !== undefined) validation.minLength = numOrUndef(minLength);
      if (numOrUndef(maxLength) !== undefined) validation.maxLength = numOrUndef(maxLength);
      if (pattern.trim()) validation.pattern = pattern.trim();
    }
    if (type === 'text' && numOrUndef(rows) !== undefined) options.rows = numOrUndef(rows);
    if (type === 'number' || type === 'integer') {
      if (numOrUndef(min) !== undefined) validation.min = numOrUndef(min);
      if (numOrUndef(max) !== undefined) validation.max = numOrUndef(max);
    }
    if ((type === 'select' || type === 'multiSelect') && lines(choices).length) validation.options = lines(choices);
    if ((type === 'image' || type === 'file') && lines(mimes).length) validation.allowedMimeTypes = lines(mimes);
    if (type === 'image' && darkVariant) options.darkVariant = true;
    if (type === 'reference') {
      if (target) {
        validation.targetCollection = target;
        if (multiple) validation.multiple = true;
        if (editing && v0.relation) validation.relation = v0.relation;
        if (editing && v0.relationSide) validation.relationSide = v0.relationSide;
      } else if (relation.trim()) validation.relation = relation.trim();
      else if (allowMultiple) options.allowMultiple = true;
    }
    if (type === 'repeater' || type === 'blocks') {
      if (numOrUndef(minItems) !== undefined) validation.minItems = numOrUndef(minItems);
      if (numOrUndef(maxItems) !== undefined) validation.maxItems = numOrUndef(maxItems);
    }
    if (type === 'repeater') {
      validation.subFields = subFields.map(({ options: opts, required, ...sub }) => ({
        ...sub,
        ...(required ? { required } : {}),
        ...(sub.type === 'select' && opts?.length ? { options: opts } : {}),
      }));
    }
    if (type === 'blocks') validation.allowedTypes = allowed;
    let defaultValue: unknown;
    if (defaultText.trim()) {
      try {
        defaultValue = JSON.parse(defaultText);
      } catch {
        setLocal('The default value must be JSON: "text" in quotes, 12, true, ["a","b"].');
        return null;
      }
    }
    setLocal(null);
    const body: FieldInput = { slug, label: label.trim(), type, translatable: flags.translatable };
    if (!isBlocks) {
      body.required = flags.required;
      if (can.unique) body.unique = flags.unique;
      if (can.searchable) body.searchable = flags.searchable;
      if (can.indexed) body.indexed = flags.indexed;
      if (widget.trim()) body.widget = widget.trim();
      if (defaultValue !== undefined) body.defaultValue = defaultValue;
    }
    if (Object.keys(validation).length) body.validation = validation;
    if (Object.keys(options).length) body.options = options;
    return body;
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = build();
    if (body) onSubmit(body);
  }

  const flag = (key: keyof typeof flags, text: string, allowedHere: boolean, why: string) => (
    <label className={allowedHere ? 'check' : 'check check--disabled'}>
      <input
        type="checkbox"
        disabled={!allowedHere}
        checked={allowedHere && flags[key]}
        onChange={(e) => setFlags({ ...flags, [key]: e.target.checked })}
      />
      <span>
        {text}
        <span className="check__hint">
          {allowedHere ? why : `Not available for this type${inBlock ? ' inside a block' : ''}.`}
        </span>
      </span>
    </label>
  );
  const shown = ['slug', 'label', 'type'];

  return (
    <form className="stack field-form" onSubmit={submit} noValidate>
      <div className="grid-2">
        <TextField
          label="Label"
          name="label"
          required
          value={label}
          onValue={setLabel}
          error={issueFor(error, 'label')}
        />
        <TextField
          label="Identifier"
          name="fieldSlug"
          required
          spellCheck={false}
          hint={
            editing ? 'Renaming keeps the data; API clients must use the new name.' : 'Lowercase letters, digits and _.'
          }
          value={slug}
          onValue={setSlug}
          error={issueFor(error, 'slug')}
        />
      </div>
      {editing && initial && slug !== initial.slug && slug ? (
        <p className="alert alert--warn" role="status">
          Renaming <code className="code">{initial.slug}</code> to <code className="code">{slug}</code>: every value is
          kept (the column is renamed in place), but API and MCP clients, templates and list filters that use{' '}
          <code className="code">{initial.slug}</code> must switch to the new name.
        </p>
      ) : null}
      <SelectField
        label="Type"
        name="type"
        value={type}
        disabled={editing}
        hint={
          editing
            ? 'The type of an existing field cannot change: add a new field instead.'
            : FIELD_TYPES.find((t) => t.type === type)?.hint
        }
        onValue={(t) => setType(t as FieldType)}
        error={issueFor(error, 'type')}
      >
        {types.map((t) => (
          <option key={t.type} value={t.type}>
            {t.label} ({t.type})
          </option>
        ))}
      </SelectField>

      <fieldset className="fieldset">
        <legend className="field__label">Rules</legend>
        <div className="checks">
          {flag('required', 'Required', can.required, 'A value must be given before saving.')}
          {flag('unique', 'Unique', can.unique, 'No two entries of a locale may share a value.')}
          {flag('indexed', 'Indexed', can.indexed, 'Sort and filter the list by it.')}
          {flag('searchable', 'Searchable', can.searchable, 'Included in full-text search.')}
          {flag('translatable', 'Translatable', true, 'Off: one value shared by every translation.')}
        </div>
      </fieldset>

      {['string', 'text', 'slug'].includes(type) ? (
        <div className="grid-3">
          <TextField
            label="Minimum length"
            name="minLength"
            type="number"
            optional
            value={minLength}
            onValue={setMinLength}
            error={issueFor(error, 'validation.minLength')}
          />
          <TextField
            label="Maximum length"
            name="maxLength"
            type="number"
            optional
            value={maxLength}
            onValue={setMaxLength}
            error={issueFor(error, 'validation.maxLength')}
          />
          <TextField
            label="Pattern"
            name="pattern"
            optional
            hint="A regular expression the whole value must match."
            spellCheck={false}
            value={pattern}
            onValue={setPattern}
            error={issueFor(error, 'validation.pattern')}
          />
        </div>
      ) : null}
      {type === 'text' ? (
        <TextField label="Rows shown" name="rows" type="number" optional value={rows} onValue={setRows} />
      ) : null}
      {type === 'number' || type === 'integer' ? (
        <div className="grid-2">
          <TextField
            label="Minimum"
            name="min"
            type="number"
            optional
            value={min}
            onValue={setMin}
            error={issueFor(error, 'validation.min')}
          />
          <TextField
            label="Maximum"
            name="max"
            type="number"
            optional
            value={max}
            onValue={setMax}
            error={issueFor(error, 'validation.max')}
          />
        </div>
      ) : null}
      {type === 'select' || type === 'multiSelect' ? (
        <div className="field">
          <label className="field__label" htmlFor="choices">
            Options <span className="field__optional">(one per line; empty accepts any text)</span>
          </label>
          <textarea
            id="choices"
            className="input textarea"
            rows={4}
            value={choices}
            onChange={(e) => setChoices(e.target.value)}
          />
          {issueFor(error, 'validation.options') ? (
            <p className="field__error">{issueFor(error, 'validation.options')}</p>
          ) : null}
        </div>
      ) : null}
      {type === 'image' || type === 'file' ? (
        <>
          <TextField
            label="Allowed file types"
            name="mimes"
            optional
            hint="Exact MIME types, comma-separated (image/png, application/pdf)."
            value={mimes}
            onValue={setMimes}
            error={issueFor(error, 'validation.allowedMimeTypes')}
          />
          {type === 'image' ? (
            <label className="check check--inline">
              <input type="checkbox" checked={darkVariant} onChange={(e) => setDarkVariant(e.target.checked)} />
              <span>Offer a second image for dark colour schemes</span>
            </label>
          ) : null}
        </>
      ) : null}
      {type === 'reference' ? (
        <fieldset className="fieldset">
          <legend className="field__label">Links to</legend>
          <SelectField
            label="Collection"
            name="target"
            value={target}
            disabled={editing && Boolean(v0.targetCollection)}
            hint={
              editing && v0.targetCollection
                ? 'The target cannot change (delete and re-add the field).'
                : 'Creates the relation; the other collection can show the link back with its own field.'
            }
            onValue={setTarget}
            error={issueFor(error, 'validation.targetCollection')}
          >
            <option value="">— None: store an entry ID as text —</option>
            {collections.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.label}
              </option>
            ))}
          </SelectField>
          {target ? (
            <label className="check check--inline">
              <input type="checkbox" checked={multiple} onChange={(e) => setMultiple(e.target.checked)} />
              <span>A linked entry may belong to several entries of this collection</span>
            </label>
          ) : (
            <>
              <TextField
                label="Bind to an existing relation"
                name="relation"
                optional
                hint="The name of a relation whose other end is free (advanced)."
                value={relation}
                onValue={setRelation}
                error={issueFor(error, 'validation.relation')}
              />
              {!relation ? (
                <label className="check check--inline">
                  <input type="checkbox" checked={allowMultiple} onChange={(e) => setAllowMultiple(e.target.checked)} />
                  <span>Several IDs (stored as a list)</span>
                </label>
              ) : null}
            </>
          )}
        </fieldset>
      ) : null}
      {type === 'repeater' || type === 'blocks' ? (
        <div className="grid-2">
          <TextField
            label={type === 'repeater' ? 'Minimum rows' : 'Minimum blocks'}
            name="minItems"
            type="number"
            optional
            value={minItems}
            onValue={setMinItems}
            error={issueFor(error, 'validation.minItems')}
          />
          <TextField
            label={type === 'repeater' ? 'Maximum rows' : 'Maximum blocks (≤ 100)'}
            name="maxItems"
            type="number"
            optional
            value={maxItems}
            onValue={setMaxItems}
            error={issueFor(error, 'validation.maxItems')}
          />
        </div>
      ) : null}
      {type === 'repeater' ? <SubFieldsEditor value={subFields} onChange={setSubFields} /> : null}
      {type === 'blocks' ? (
        <fieldset className="fieldset">
          <legend className="field__label">Allowed block types</legend>
          {blockTypes.length === 0 ? (
            <p className="field__hint">Create block types first (Schema → Block types).</p>
          ) : null}
          <div className="checks">
            {blockTypes.map((b) => (
              <label key={b.slug} className="check">
                <input
                  type="checkbox"
                  checked={allowed.includes(b.slug)}
                  onChange={(e) =>
                    setAllowed(e.target.checked ? [...allowed, b.slug] : allowed.filter((x) => x !== b.slug))
                  }
                />
                <span>
                  {b.label}
                  <span className="check__hint">v{b.activeVersion}</span>
                </span>
              </label>
            ))}
          </div>
          {Array.isArray(v0.retiredTypes) && v0.retiredTypes.length ? (
            <p className="field__hint">
              Retired (kept in existing entries, cannot be added): {(v0.retiredTypes as string[]).join(', ')}
            </p>
          ) : null}
          {issueFor(error, 'validation.allowedTypes') ? (
            <p className="field__error">{issueFor(error, 'validation.allowedTypes')}</p>
          ) : null}
        </fieldset>
      ) : null}
      {!isBlocks ? (
        <div className="grid-2">
          <TextField
            label="Default value"
            name="defaultValue"
            optional
            hint='JSON: "text", 3, true, ["a"]'
            spellCheck={false}
            value={defaultText}
            onValue={setDefaultText}
            error={local ?? issueFor(error, 'defaultValue')}
          />
          <TextField
            label="Custom widget"
            name="widget"
            optional
            hint="Name of an editor widget registered by a plugin."
            value={widget}
            onValue={setWidget}
          />
        </div>
      ) : null}
      <ErrorMessage
        error={error}
        extra={otherIssues(error, [
          ...shown,
          'defaultValue',
          'validation.minLength',
          'validation.maxLength',
          'validation.pattern',
          'validation.min',
          'validation.max',
          'validation.options',
          'validation.allowedMimeTypes',
          'validation.targetCollection',
          'validation.relation',
          'validation.minItems',
          'validation.maxItems',
          'validation.allowedTypes',
        ])}
      />
      <div className="actions">
        <Button type="submit" variant="primary" busy={busy} disabled={!label.trim() || !slug}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
