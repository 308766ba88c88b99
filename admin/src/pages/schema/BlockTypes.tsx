import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { type BlockType, blockTypesQuery, type FieldInput } from '../../api/content';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { typeLabel } from '../../lib/fieldTypes';
import { formatDateTime } from '../../lib/format';
import { issueFor, otherIssues } from '../../lib/forms';
import { FieldForm } from './FieldForm';

/**
 * Admin: block types for blocks fields and rich text. Changing the fields
 * stores a new version; existing blocks keep the version they were written
 * with, and the active version is what new blocks get.
 */
export function BlockTypesPage() {
  const list = useQuery(blockTypesQuery);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Page
      title="Block types"
      description="Reusable, versioned blocks for blocks fields and rich text."
      actions={
        <Link to="/schema" className="button button--ghost button--small">
          Schema
        </Link>
      }
    >
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <BlockTypeEditor onSaved={(b) => setNotice(`Saved ${b.label} (version ${b.activeVersion} active).`)} />
      <Section id="block-types" title="Block types">
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !list.data.items.length ? (
          <p className="empty">
            No block types yet. A block type is a small form (quote, call to action, gallery…) editors add to content.
          </p>
        ) : null}
        <ul className="rows" hidden={!list.data?.items.length}>
          {(list.data?.items ?? []).map((b) => (
            <BlockTypeRow key={b.slug} block={b} onSaved={(x) => setNotice(`Saved ${x.label}.`)} />
          ))}
        </ul>
      </Section>
    </Page>
  );
}

function BlockTypeRow({ block, onSaved }: { block: BlockType; onSaved: (b: BlockType) => void }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const activate = useMutation({
    mutationFn: (version: number) =>
      unwrap(
        api.POST('/schema/block-types/{slug}/versions/{version}/activate', {
          params: { path: { slug: block.slug, version } },
        }),
      ),
    onSuccess: async (b) => {
      await queryClient.invalidateQueries({ queryKey: ['schema'] });
      await queryClient.invalidateQueries({ queryKey: ['content-model'] });
      onSaved(b);
    },
  });
  if (editing) {
    return (
      <li className="row row--edit">
        <BlockTypeEditor
          existing={block}
          onCancel={() => setEditing(false)}
          onSaved={(b) => {
            setEditing(false);
            onSaved(b);
          }}
        />
      </li>
    );
  }
  return (
    <li className="row row--stack">
      <div className="row__main">
        <p className="row__title">
          {block.label} <code className="code">{block.slug}</code>
        </p>
        <p className="row__meta">
          {block.fields.map((f) => (
            <span key={f.slug}>
              {f.label} ({typeLabel(f.type)})
            </span>
          ))}
        </p>
        <ol className="versions" aria-label={`Versions of ${block.label}`}>
          {block.versions.map((v) => (
            <li key={v.version} className="versions__item">
              <span>
                Version {v.version} · {v.fields.length} {v.fields.length === 1 ? 'field' : 'fields'} ·{' '}
                {formatDateTime(v.createdAt)}
              </span>
              {v.active ? (
                <span className="pill pill--published">active</span>
              ) : (
                <Button
                  size="small"
                  variant="ghost"
                  busy={activate.isPending && activate.variables === v.version}
                  onClick={() => activate.mutate(v.version)}
                >
                  Make active
                </Button>
              )}
            </li>
          ))}
        </ol>
        <ErrorMessage error={activate.error} />
      </div>
      <div className="row__actions">
        <Button size="small" variant="ghost" onClick={() => setEditing(true)}>
          Edit<span className="visually-hidden"> {block.label}</span>
        </Button>
      </div>
    </li>
  );
}

function BlockTypeEditor({
  existing,
  onSaved,
  onCancel,
}: {
  existing?: BlockType;
  onSaved: (b: BlockType) => void;
  onCancel?: () => void;
}) {
  const queryClient = useQueryClient();
  const [slug, setSlug] = useState(existing?.slug ?? '');
  const [label, setLabel] = useState(existing?.label ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [fields, setFields] = useState<FieldInput[]>((existing?.fields as FieldInput[]) ?? []);
  const [fieldForm, setFieldForm] = useState<number | 'new' | null>(null);
  const save = useMutation({
    mutationFn: () =>
      existing
        ? unwrap(
            api.PUT('/schema/block-types/{slug}', {
              params: { path: { slug: existing.slug } },
              body: { label, description: description || null, fields },
            }),
          )
        : unwrap(api.POST('/schema/block-types', { body: { slug, label, description: description || null, fields } })),
    onSuccess: async (b) => {
      await queryClient.invalidateQueries({ queryKey: ['schema'] });
      await queryClient.invalidateQueries({ queryKey: ['content-model'] });
      if (!existing) {
        setSlug('');
        setLabel('');
        setDescription('');
        setFields([]);
      }
      onSaved(b);
    },
  });
  const changedFields = existing && JSON.stringify(existing.fields) !== JSON.stringify(fields);
  const body = (
    <div className="stack">
      <div className="grid-2">
        <TextField
          label="Name"
          name="blockLabel"
          required
          value={label}
          onValue={setLabel}
          error={issueFor(save.error, 'label')}
        />
        <TextField
          label="Identifier"
          name="blockSlug"
          required
          disabled={Boolean(existing)}
          value={slug}
          onValue={setSlug}
          error={issueFor(save.error, 'slug')}
        />
      </div>
      <TextField label="Description" name="blockDescription" optional value={description} onValue={setDescription} />
      <div className="fieldset">
        <p className="field__label">Fields</p>
        {fields.length === 0 ? <p className="field__hint">Add at least one field.</p> : null}
        <ul className="rows">
          {fields.map((f, i) =>
            fieldForm === i ? (
              <li key={f.slug} className="row row--edit">
                <FieldForm
                  context="block"
                  initial={f}
                  collections={[]}
                  blockTypes={[]}
                  submitLabel="Keep field"
                  onCancel={() => setFieldForm(null)}
                  onSubmit={(next) => {
                    setFields(fields.map((x, j) => (j === i ? next : x)));
                    setFieldForm(null);
                  }}
                />
              </li>
            ) : (
              <li key={f.slug} className="row">
                <div className="row__main">
                  <p className="row__title">{f.label}</p>
                  <p className="row__meta">
                    <code className="code">{f.slug}</code> <span>{typeLabel(f.type)}</span>
                  </p>
                </div>
                <div className="row__actions">
                  <Button size="small" variant="ghost" onClick={() => setFieldForm(i)}>
                    Edit<span className="visually-hidden"> {f.label}</span>
                  </Button>
                  <Button
                    size="small"
                    variant="ghost"
                    className="button--quiet-danger"
                    onClick={() => setFields(fields.filter((_, j) => j !== i))}
                  >
                    Remove<span className="visually-hidden"> {f.label}</span>
                  </Button>
                </div>
              </li>
            ),
          )}
        </ul>
        {fieldForm === 'new' ? (
          <div className="subform">
            <FieldForm
              context="block"
              collections={[]}
              blockTypes={[]}
              submitLabel="Add to the block"
              onCancel={() => setFieldForm(null)}
              onSubmit={(next) => {
                setFields([...fields, next]);
                setFieldForm(null);
              }}
            />
          </div>
        ) : (
          <Button size="small" onClick={() => setFieldForm('new')}>
            Add a field
          </Button>
        )}
      </div>
      {changedFields ? (
        <p className="alert alert--warn" role="status">
          Saving stores version {(existing?.versions.length ?? 0) + 1} and makes it active. Blocks already written keep
          version {existing?.activeVersion} and still show its fields; new blocks use the new version.
        </p>
      ) : null}
      <ErrorMessage error={save.error} extra={otherIssues(save.error, ['label', 'slug'])} />
      <div className="actions">
        <Button
          variant="primary"
          busy={save.isPending}
          disabled={!label.trim() || !slug || !fields.length}
          onClick={() => save.mutate()}
        >
          {existing ? 'Save block type' : 'Create block type'}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </div>
  );
  return existing ? (
    body
  ) : (
    <Section id="new-block-type" title="New block type">
      {body}
    </Section>
  );
}
