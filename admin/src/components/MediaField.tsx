import { useId } from 'react';
import { MediaChooser } from './media/MediaChooser';

/**
 * A setting that selects a media item (logo, favicon, social image): the
 * chosen item's thumbnail, chosen from the library or uploaded in the media
 * picker. The value is the item's ID; the service checks it names a ready
 * item of the library.
 */
export function MediaField({
  label,
  hint,
  value,
  onValue,
  error,
  disabled,
  accept = ['image/*'],
}: {
  label: string;
  hint: string;
  value: string;
  onValue: (id: string) => void;
  error?: string;
  disabled?: boolean;
  accept?: readonly string[];
}) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <span className="field__label" id={`${id}-label`}>
        {label}
        <span className="field__optional"> (optional)</span>
      </span>
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
      <MediaChooser
        mediaId={value || null}
        noun={label.toLowerCase()}
        accept={accept}
        labelledBy={`${id}-label`}
        describedBy={describedBy}
        invalid={Boolean(error)}
        disabled={disabled}
        onPick={(item) => onValue(item.id)}
        onClear={() => onValue('')}
      />
      {error ? (
        <p id={`${id}-error`} className="field__error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
