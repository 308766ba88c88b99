import { type DragEvent, useId, useRef, useState } from 'react';
import { messageOf } from '../../api/errors';
import { type UploadFields, type UploadResult, uploadMedia } from '../../api/media';
import { formatBytes, mimeMatches } from '../../lib/media';

interface Props {
  /** Sent with every upload (folder of the open view, the field the picker serves). */
  fields?: UploadFields;
  /** MIME types or families accepted here; other files are refused before they are sent. */
  accept?: readonly string[];
  /** Called for every finished upload (new or already in the library). */
  onUploaded: (result: UploadResult) => void;
  /** A smaller drop area (inside the picker). */
  compact?: boolean;
}

type Status = 'waiting' | 'uploading' | 'done' | 'duplicate' | 'error';

interface Job {
  key: number;
  file: File;
  progress: number;
  status: Status;
  message?: string;
}

const PARALLEL = 2;
let nextKey = 0;

/**
 * Drop files here (or choose them): each one uploads with its own progress
 * bar, two at a time. A file whose bytes are already in the library is not
 * stored twice: the row says so and the existing item is used.
 */
export function UploadDropzone({ fields, accept, onUploaded, compact = false }: Props) {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const running = useRef(0);
  const queue = useRef<Job[]>([]);
  const inputId = useId();
  const hintId = useId();

  const patch = (key: number, change: Partial<Job>) =>
    setJobs((all) => all.map((j) => (j.key === key ? { ...j, ...change } : j)));

  function pump() {
    while (running.current < PARALLEL && queue.current.length) {
      const job = queue.current.shift() as Job;
      running.current++;
      patch(job.key, { status: 'uploading' });
      const { done } = uploadMedia(job.file, fields ?? {}, (progress) => patch(job.key, { progress }));
      done
        .then((result) => {
          patch(job.key, {
            status: result.deduplicated ? 'duplicate' : 'done',
            progress: 1,
            message: result.deduplicated
              ? `Already in the library as “${result.item.filename}”: that file is used, nothing was stored twice.`
              : undefined,
          });
          onUploaded(result);
        })
        .catch((err: unknown) => patch(job.key, { status: 'error', message: messageOf(err) }))
        .finally(() => {
          running.current--;
          pump();
        });
    }
  }

  function add(files: FileList | File[]) {
    const fresh: Job[] = [];
    for (const file of Array.from(files)) {
      const job: Job = { key: ++nextKey, file, progress: 0, status: 'waiting' };
      if (file.type && !mimeMatches(file.type, accept)) {
        job.status = 'error';
        job.message = `This kind of file (${file.type}) cannot be used here.`;
      } else queue.current.push(job);
      fresh.push(job);
    }
    setJobs((all) => [...fresh, ...all].slice(0, 50));
    pump();
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) add(e.dataTransfer.files);
  };

  return (
    <div className={compact ? 'dropzone dropzone--compact' : 'dropzone'}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the file button does the same */}
      <div
        className={over ? 'dropzone__target dropzone__target--over' : 'dropzone__target'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <p id={hintId}>
          <strong>Drop files here</strong> or{' '}
          <label htmlFor={inputId} className="button button--small button--primary dropzone__choose">
            choose files
          </label>
        </p>
        <input
          ref={input}
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple
          accept={accept?.join(',')}
          aria-describedby={hintId}
          onChange={(e) => {
            if (e.target.files?.length) add(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
      {jobs.length ? (
        <div className="uploads__head">
          <span className="muted small">
            {jobs.filter((j) => j.status === 'waiting' || j.status === 'uploading').length
              ? 'Uploading…'
              : 'All uploads finished.'}
          </span>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => setJobs((all) => all.filter((j) => j.status === 'waiting' || j.status === 'uploading'))}
          >
            Clear finished
          </button>
        </div>
      ) : null}
      {jobs.length ? (
        <ul className="uploads" aria-label="Uploads" aria-live="polite">
          {jobs.map((job) => (
            <li key={job.key} className={`upload upload--${job.status}`}>
              <span className="upload__name">{job.file.name}</span>
              <span className="upload__size">{formatBytes(job.file.size)}</span>
              <progress
                className="upload__bar"
                max={1}
                value={job.progress}
                aria-label={`Upload of ${job.file.name}`}
              />
              <span className="upload__state">{stateText(job)}</span>
              {job.message ? <p className="upload__message">{job.message}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function stateText(job: Job): string {
  switch (job.status) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return `${Math.round(job.progress * 100)} %`;
    case 'done':
      return 'Uploaded';
    case 'duplicate':
      return 'Already in library';
    case 'error':
      return 'Failed';
  }
}
