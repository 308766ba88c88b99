import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { deleteMedia, listFolders, type MediaItem, mediaKeys, replaceMedia, updateMedia } from '../../api/media';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyField } from '../../components/CopyField';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { FieldShell, SelectField, TextField } from '../../components/Field';
import { MediaThumb } from '../../components/media/MediaThumb';
import { formatDateTime } from '../../lib/format';
import { issueFor, otherIssues } from '../../lib/forms';
import { formatBytes, typeLabel } from '../../lib/media';
import { FocalPointPicker } from './FocalPointPicker';
import { UsagePanel } from './UsagePanel';

interface Props {
  item: MediaItem;
  canEdit: boolean;
  onClose: () => void;
  onChanged: (item: MediaItem | null) => void;
}

/** One item: preview, facts, its address, alt text and caption, folder; replace or delete it. */
export function MediaDetails({ item, canEdit, onClose, onChanged }: Props) {
  const queryClient = useQueryClient();
  const [alt, setAlt] = useState(item.alt ?? '');
  const [caption, setCaption] = useState(item.caption ?? '');
  const [filename, setFilename] = useState(item.filename);
  const [folderId, setFolderId] = useState(item.folderId ?? '');
  const [focalPoint, setFocalPoint] = useState(item.focalPoint ?? null);
  // Raster images the library knows the size of (the service refuses a focal point on others).
  const focusable = item.mimeType.startsWith('image/') && item.mimeType !== 'image/svg+xml' && !!item.width;
  const [notice, setNotice] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [replaceError, setReplaceError] = useState<unknown>(null);
  const folders = useQuery({ queryKey: mediaKeys.folders, queryFn: listFolders });
  const refresh = () => queryClient.invalidateQueries({ queryKey: mediaKeys.all });

  const save = useMutation({
    mutationFn: () =>
      updateMedia(item.id, {
        alt,
        caption,
        filename,
        folderId: folderId || null,
        ...(focusable ? { focalPoint } : {}),
      }),
    onSuccess: ({ item: next }) => {
      setNotice('Saved.');
      onChanged(next);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteMedia(item.id),
    onSuccess: () => {
      refresh();
      onChanged(null);
    },
  });

  function replace(file: File) {
    setReplaceError(null);
    setNotice(null);
    setProgress(0);
    replaceMedia(item.id, file, setProgress)
      .done.then(({ item: next }) => {
        setNotice('File replaced: same address, new content.');
        onChanged(next);
        refresh();
      })
      .catch(setReplaceError)
      .finally(() => setProgress(null));
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    save.mutate();
  };
  const shown = ['alt', 'caption', 'filename', 'folderId'];

  return (
    <aside className="media-details card" aria-label={`Details of ${item.filename}`}>
      <div className="media-details__head">
        <h2 className="card__title">{item.filename}</h2>
        <Button variant="ghost" size="small" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="media-details__preview">
        <MediaThumb item={item} />
      </div>
      <dl className="summary">
        <div>
          <dt>Type</dt>
          <dd>
            {typeLabel(item.mimeType)} <span className="muted">({item.mimeType})</span>
          </dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{formatBytes(item.size)}</dd>
        </div>
        {item.width && item.height ? (
          <div>
            <dt>Dimensions</dt>
            <dd>
              {item.width} × {item.height} px
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Uploaded</dt>
          <dd>{formatDateTime(item.createdAt)}</dd>
        </div>
      </dl>
      <CopyField label="File address" value={item.url} hint="Stays the same when the file is replaced." />
      <UsagePanel id={item.id} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {canEdit ? (
        <form className="stack" onSubmit={submit}>
          <ErrorMessage error={save.error} extra={otherIssues(save.error, shown)} />
          <TextField
            label="Alternative text"
            hint="Describes the image for people who cannot see it. Leave empty for decorative images."
            name="alt"
            value={alt}
            onValue={setAlt}
            maxLength={1000}
            error={issueFor(save.error, 'alt')}
          />
          <FieldShell label="Caption" optionalMark error={issueFor(save.error, 'caption')}>
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                className="input"
                rows={3}
                maxLength={5000}
                value={caption}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(e) => setCaption(e.target.value)}
              />
            )}
          </FieldShell>
          <TextField
            label="File name"
            name="filename"
            value={filename}
            onValue={setFilename}
            maxLength={255}
            required
            error={issueFor(save.error, 'filename')}
          />
          <SelectField
            label="Folder"
            name="folderId"
            value={folderId}
            onValue={setFolderId}
            error={issueFor(save.error, 'folderId')}
          >
            <option value="">Main library (no folder)</option>
            {(folders.data?.items ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </SelectField>
          {focusable ? <FocalPointPicker item={item} value={focalPoint} onValue={setFocalPoint} /> : null}
          <div className="actions">
            <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…">
              Save
            </Button>
          </div>
        </form>
      ) : (
        <p className="muted">{item.alt ? `Alternative text: ${item.alt}` : 'No alternative text.'}</p>
      )}
      {canEdit ? (
        <div className="media-details__danger">
          <label className="button button--small">
            {progress !== null ? `Replacing… ${Math.round(progress * 100)} %` : 'Replace file…'}
            <input
              type="file"
              className="visually-hidden"
              disabled={progress !== null}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) replace(file);
              }}
            />
          </label>
          <ConfirmButton
            label="Delete"
            confirmLabel="Delete for good"
            question="Content that uses this file will show nothing in its place."
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      ) : null}
      <ErrorMessage error={replaceError ?? remove.error} />
    </aside>
  );
}
