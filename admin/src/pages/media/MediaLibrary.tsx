import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { Me } from '../../api/auth';
import { type MediaItem, mediaKeys } from '../../api/media';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { MediaFilterBar } from '../../components/media/MediaFilterBar';
import { MediaGrid, type MediaView } from '../../components/media/MediaGrid';
import { UploadDropzone } from '../../components/media/UploadDropzone';
import { useMediaList } from '../../components/media/useMediaList';
import { Page } from '../../components/Page';
import { FolderPanel } from './FolderPanel';
import { MediaDetails } from './MediaDetails';

export interface MediaSearch {
  folder?: string;
  type?: string;
  q?: string;
  view?: MediaView;
}

const CONTRIBUTOR = 20;
const AUTHOR = 30;
const EDITOR = 40;

/** The media library: folders, filters, grid or list, uploads, and the details of one item. */
export function MediaLibraryPage({ me, search }: { me: Me; search: MediaSearch }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState(search.q ?? '');
  const [selected, setSelected] = useState<MediaItem | null>(null);
  const folder = search.folder ?? '';
  const view = search.view ?? 'grid';
  const role = me.user.role;
  const setSearch = (change: Partial<MediaSearch>) =>
    navigate({ to: '/media', search: { ...search, ...change }, replace: true });

  // Typing filters after a short pause; the filters live in the address so a view can be shared.
  useEffect(() => {
    const t = setTimeout(() => {
      const q = text.trim() || undefined;
      if (q !== search.q) navigate({ to: '/media', search: { ...search, q }, replace: true });
    }, 300);
    return () => clearTimeout(t);
  }, [text, search, navigate]);

  const list = useMediaList({ folderId: folder || undefined, mimeType: search.type, filename: search.q });
  const canEdit = (item: MediaItem) => role >= EDITOR || (role >= AUTHOR && item.uploadedBy === me.user.id);
  const filtered = Boolean(search.q || search.type);

  return (
    <Page title="Media" description="Images, documents and other files your content uses.">
      <div className="media-layout">
        <FolderPanel
          current={folder}
          onOpen={(f) => setSearch({ folder: f || undefined })}
          canManage={role >= EDITOR}
        />
        <div className="media-main">
          {role >= CONTRIBUTOR ? (
            <section className="card" aria-labelledby="upload-title">
              <h2 id="upload-title" className="card__title">
                Upload
              </h2>
              <UploadDropzone
                fields={{ folderId: folder && folder !== 'unfiled' ? folder : undefined }}
                onUploaded={() => queryClient.invalidateQueries({ queryKey: mediaKeys.all })}
              />
            </section>
          ) : null}
          <section className="card" aria-labelledby="library-title">
            <h2 id="library-title" className="card__title">
              Library
            </h2>
            <MediaFilterBar
              search={text}
              onSearch={setText}
              type={search.type ?? ''}
              onType={(type) => setSearch({ type: type || undefined })}
              view={view}
              onView={(v) => setSearch({ view: v === 'grid' ? undefined : v })}
            />
            {list.isPending ? <Spinner label="Loading media…" /> : null}
            {list.isError ? <ErrorMessage error={list.error} /> : null}
            {list.isSuccess && !list.items.length ? (
              <p className="empty">
                {filtered
                  ? 'No file matches these filters.'
                  : role >= CONTRIBUTOR
                    ? 'No files here yet. Drop images or documents on the upload area above, or choose them from your computer.'
                    : 'No files here yet.'}
              </p>
            ) : null}
            <MediaGrid
              items={list.items}
              view={view}
              label="Media files"
              selected={selected ? [selected.id] : []}
              onActivate={(item) => setSelected((now) => (now?.id === item.id ? null : item))}
            />
            {list.hasNextPage ? (
              <div className="actions">
                <Button busy={list.isFetchingNextPage} busyLabel="Loading…" onClick={() => list.fetchNextPage()}>
                  Load more
                </Button>
              </div>
            ) : null}
          </section>
        </div>
        {selected ? (
          <MediaDetails
            key={selected.id}
            item={selected}
            canEdit={canEdit(selected)}
            onClose={() => setSelected(null)}
            onChanged={setSelected}
          />
        ) : null}
      </div>
    </Page>
  );
}
