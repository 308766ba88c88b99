import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/errors';
import { getMedia, type MediaItem, mediaKeys } from '../../api/media';
import { Button } from '../Button';
import { MediaPicker } from './MediaPicker';
import { MediaThumb } from './MediaThumb';

export interface MediaChooserProps {
  /** ID of the chosen media item, or null. */
  mediaId: string | null;
  /** What the value says about itself when the library has no such item (a filename, an address). */
  fallbackLabel?: string | null;
  onPick: (item: MediaItem) => void;
  onClear: () => void;
  /** MIME types or `type/*` families the picker offers and accepts for upload. */
  accept?: readonly string[];
  /** Noun for the buttons and the dialog: "image", "file", "logo". */
  noun: string;
  disabled?: boolean;
  /** Labels the group (the field's label element). */
  labelledBy?: string;
  describedBy?: string;
  invalid?: boolean;
}

/**
 * One chosen media item with its thumbnail, and buttons to choose another
 * (from the library or by uploading, in the media picker) or to clear it.
 * The entry editor's image and file fields and the media settings use it, so
 * every place that selects media behaves the same. The item is read from the
 * library by ID: a value whose item was deleted says so instead of showing a
 * broken image.
 */
export function MediaChooser({
  mediaId,
  fallbackLabel,
  onPick,
  onClear,
  accept,
  noun,
  disabled,
  labelledBy,
  describedBy,
  invalid,
}: MediaChooserProps) {
  const [open, setOpen] = useState(false);
  const item = useQuery({
    queryKey: [...mediaKeys.all, 'item', mediaId],
    queryFn: () => getMedia(mediaId as string),
    enabled: Boolean(mediaId),
    staleTime: 60_000,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const missing = item.isError && item.error instanceof ApiError && item.error.status === 404;
  const title = !mediaId
    ? `No ${noun} chosen`
    : item.data
      ? item.data.filename
      : missing
        ? `This ${noun} is no longer in the media library`
        : (fallbackLabel ?? mediaId);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would restyle the form; the group role names it the same way.
    <div
      className={invalid ? 'media-choice media-choice--invalid' : 'media-choice'}
      role="group"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-media-id={mediaId ?? undefined}
    >
      {item.data ? (
        <MediaThumb item={item.data} />
      ) : (
        <span className="media-slot__icon" aria-hidden="true">
          {accept?.length && accept.every((a) => a.startsWith('image/')) ? 'IMG' : 'FILE'}
        </span>
      )}
      <div className="media-choice__body">
        <p className="media-choice__title">{title}</p>
        {item.data?.width && item.data.height ? (
          <p className="field__hint">
            {item.data.width} × {item.data.height} · {item.data.mimeType}
          </p>
        ) : item.data ? (
          <p className="field__hint">{item.data.mimeType}</p>
        ) : null}
        {disabled ? null : (
          <div className="media-choice__actions">
            <Button size="small" onClick={() => setOpen(true)}>
              {mediaId ? `Replace ${noun}` : `Choose ${noun}`}
            </Button>
            {mediaId ? (
              <Button size="small" variant="ghost" className="button--quiet-danger" onClick={onClear}>
                Clear
              </Button>
            ) : null}
          </div>
        )}
      </div>
      <MediaPicker
        open={open}
        onClose={() => setOpen(false)}
        accept={accept}
        title={`Choose ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`}
        onSelect={([picked]) => {
          if (picked) onPick(picked);
        }}
      />
    </div>
  );
}
