import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { listFolders, type MediaItem, mediaKeys } from '../../api/media';
import { mimeMatches } from '../../lib/media';
import { Button } from '../Button';
import { ErrorMessage, Spinner } from '../Feedback';
import { SelectField } from '../Field';
import { MediaFilterBar } from './MediaFilterBar';
import { MediaGrid, type MediaView } from './MediaGrid';
import { UploadDropzone } from './UploadDropzone';
import { useMediaList } from './useMediaList';

export interface MediaPickerProps {
  /** Shows the picker as a modal dialog (focus stays inside; Escape or Cancel closes it). */
  open: boolean;
  onClose: () => void;
  /** The chosen items, in the order they were picked (one unless `multiple`); the picker then closes. */
  onSelect: (items: MediaItem[]) => void;
  /** Allow choosing several items. */
  multiple?: boolean;
  /** MIME types or `type/*` families: only matching items are listed, and uploads must match. */
  accept?: readonly string[];
  /** ID of the image or file field being filled: uploads are checked against its allowedMimeTypes. */
  fieldId?: string;
  /** Dialog heading, e.g. "Choose a cover image". */
  title?: string;
}

/**
 * Choose media from the library, or upload new files, in a dialog. The entry
 * editor and the settings page embed it:
 *
 *   const [open, setOpen] = useState(false);
 *   <Button onClick={() => setOpen(true)}>Choose image</Button>
 *   <MediaPicker open={open} onClose={() => setOpen(false)} accept={['image/*']}
 *                onSelect={([item]) => setValue({ id: item.id, provider: 'local', src: item.url, … })} />
 */
export function MediaPicker({ open, onClose, onSelect, multiple = false, accept, fieldId, title }: MediaPickerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="picker"
      aria-labelledby={headingId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <PickerBody
          headingId={headingId}
          title={title ?? (multiple ? 'Choose media' : 'Choose a file')}
          multiple={multiple}
          accept={accept}
          fieldId={fieldId}
          onClose={onClose}
          onSelect={onSelect}
        />
      ) : null}
    </dialog>
  );
}

function PickerBody({
  headingId,
  title,
  multiple,
  accept,
  fieldId,
  onClose,
  onSelect,
}: { headingId: string; title: string } & Required<Pick<MediaPickerProps, 'multiple' | 'onClose' | 'onSelect'>> &
  Pick<MediaPickerProps, 'accept' | 'fieldId'>) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [filename, setFilename] = useState('');
  const [folderId, setFolderId] = useState('');
  const [view, setView] = useState<MediaView>('grid');
  const [chosen, setChosen] = useState<MediaItem[]>([]);
  const folders = useQuery({ queryKey: mediaKeys.folders, queryFn: listFolders });

  useEffect(() => {
    const t = setTimeout(() => setFilename(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);

  const list = useMediaList({ folderId: folderId || undefined, filename, mimeType: accept?.join(',') });

  function toggle(item: MediaItem) {
    setChosen((now) => {
      if (now.some((c) => c.id === item.id)) return now.filter((c) => c.id !== item.id);
      return multiple ? [...now, item] : [item];
    });
  }

  return (
    <div className="picker__body">
      <div className="picker__head">
        <h2 id={headingId} className="card__title">
          {title}
        </h2>
        <Button variant="ghost" size="small" onClick={onClose}>
          Close
        </Button>
      </div>
      <UploadDropzone
        compact
        accept={accept}
        fields={{ folderId: folderId && folderId !== 'unfiled' ? folderId : undefined, fieldId }}
        onUploaded={(result) => {
          queryClient.invalidateQueries({ queryKey: mediaKeys.all });
          setChosen((now) =>
            now.some((c) => c.id === result.item.id) ? now : multiple ? [...now, result.item] : [result.item],
          );
        }}
      />
      <div className="picker__filters">
        <MediaFilterBar
          search={search}
          onSearch={setSearch}
          type={null}
          onType={() => {}}
          view={view}
          onView={setView}
        />
        <SelectField label="Folder" name="folder" value={folderId} onValue={setFolderId}>
          <option value="">All media</option>
          <option value="unfiled">Main library</option>
          {(folders.data?.items ?? []).map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="picker__list">
        {list.isPending ? <Spinner label="Loading media…" /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !list.items.length ? (
          <p className="empty">
            {filename ? 'No file matches this search.' : 'Nothing here yet. Upload a file above to use it.'}
          </p>
        ) : null}
        <MediaGrid
          items={list.items}
          view={view}
          label="Media to choose from"
          selected={chosen.map((c) => c.id)}
          onActivate={toggle}
          unavailable={(item) => (mimeMatches(item.mimeType, accept) ? null : 'This kind of file cannot be used here')}
        />
        {list.hasNextPage ? (
          <Button size="small" busy={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
            Load more
          </Button>
        ) : null}
      </div>
      <div className="picker__foot">
        <span aria-live="polite" className="muted">
          {chosen.length ? `${chosen.length} selected` : 'Nothing selected'}
        </span>
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="primary"
          disabled={!chosen.length}
          onClick={() => {
            onSelect(chosen);
            onClose();
          }}
        >
          {multiple ? 'Use selected' : 'Use this file'}
        </Button>
      </div>
    </div>
  );
}
