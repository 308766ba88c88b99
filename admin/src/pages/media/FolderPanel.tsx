import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { createFolder, deleteFolder, listFolders, type MediaFolder, mediaKeys, renameFolder } from '../../api/media';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { issueFor } from '../../lib/forms';

interface Props {
  /** '' = all media, 'unfiled' = the Main library, else a folder ID. */
  current: string;
  onOpen: (folder: string) => void;
  /** Editors and Admins create, rename and delete folders. */
  canManage: boolean;
}

/** The folders of the library: everything, the Main library (no folder) and each folder with its count. */
export function FolderPanel({ current, onOpen, canManage }: Props) {
  const queryClient = useQueryClient();
  const folders = useQuery({ queryKey: mediaKeys.folders, queryFn: listFolders });
  const refresh = () => queryClient.invalidateQueries({ queryKey: mediaKeys.all });
  const items = folders.data?.items ?? [];
  const open = items.find((f) => f.id === current);

  return (
    <nav className="folders card" aria-label="Folders">
      <h2 className="card__title">Folders</h2>
      <ul className="folders__list">
        <FolderLink label="All media" active={current === ''} onOpen={() => onOpen('')} />
        <FolderLink
          label="Main library"
          hint="Files in no folder"
          active={current === 'unfiled'}
          onOpen={() => onOpen('unfiled')}
        />
        {items.map((f) => (
          <FolderLink
            key={f.id}
            label={f.name}
            count={f.itemCount}
            active={current === f.id}
            onOpen={() => onOpen(f.id)}
          />
        ))}
      </ul>
      {folders.isError ? <ErrorMessage error={folders.error} /> : null}
      {canManage ? (
        <NewFolder
          onCreated={(f) => {
            refresh();
            onOpen(f.id);
          }}
        />
      ) : null}
      {canManage && open ? (
        <EditFolder
          key={open.id}
          folder={open}
          onChanged={refresh}
          onDeleted={() => {
            refresh();
            onOpen('unfiled');
          }}
        />
      ) : null}
    </nav>
  );
}

function FolderLink({
  label,
  hint,
  count,
  active,
  onOpen,
}: {
  label: string;
  hint?: string;
  count?: number;
  active: boolean;
  onOpen: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        className={active ? 'folders__link folders__link--active' : 'folders__link'}
        aria-current={active ? 'true' : undefined}
        title={hint}
        onClick={onOpen}
      >
        <span>{label}</span>
        {count !== undefined ? <span className="folders__count">{count}</span> : null}
      </button>
    </li>
  );
}

function NewFolder({ onCreated }: { onCreated: (f: MediaFolder) => void }) {
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => createFolder(name),
    onSuccess: (f) => {
      setName('');
      onCreated(f);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="folders__form" onSubmit={submit}>
      <TextField
        label="New folder"
        name="folder-name"
        value={name}
        onValue={setName}
        maxLength={200}
        required
        error={issueFor(create.error, 'name') ?? (create.error ? (create.error as Error).message : undefined)}
      />
      <Button type="submit" size="small" busy={create.isPending}>
        Create folder
      </Button>
    </form>
  );
}

function EditFolder({
  folder,
  onChanged,
  onDeleted,
}: {
  folder: MediaFolder;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const [name, setName] = useState(folder.name);
  const rename = useMutation({ mutationFn: () => renameFolder(folder.id, name), onSuccess: onChanged });
  const remove = useMutation({ mutationFn: () => deleteFolder(folder.id), onSuccess: onDeleted });
  return (
    <form
      className="folders__form"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate();
      }}
    >
      <TextField
        label={`Rename “${folder.name}”`}
        name="rename-folder"
        value={name}
        onValue={setName}
        maxLength={200}
        required
        error={issueFor(rename.error, 'name') ?? (rename.error ? (rename.error as Error).message : undefined)}
      />
      <div className="actions">
        <Button type="submit" size="small" busy={rename.isPending} disabled={name.trim() === folder.name}>
          Rename
        </Button>
        <ConfirmButton
          label="Delete folder"
          confirmLabel="Delete"
          question={`Its ${folder.itemCount} file(s) go back to the Main library.`}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      {remove.isError ? <ErrorMessage error={remove.error} /> : null}
    </form>
  );
}
