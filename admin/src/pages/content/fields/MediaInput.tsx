import type { ReactNode } from 'react';
import type { InputProps } from './FieldInput';

/**
 * Image and file fields. The media library (with its picker) is being built
 * separately: it plugs in here, through `mediaPicker`, and this is the only
 * place that changes. Until then the field shows what it holds and says why it
 * cannot be changed, instead of offering a control that fails.
 */
export type MediaPicker = (props: InputProps) => ReactNode;
export let mediaPicker: MediaPicker | null = null;

export function registerMediaPicker(picker: MediaPicker): void {
  mediaPicker = picker;
}

export function MediaInput(props: InputProps) {
  if (mediaPicker) return <>{mediaPicker(props)}</>;
  const { value, field, id } = props;
  const v = value as { filename?: string; src?: string; alt?: string; id?: string } | null;
  const label = v ? v.filename || v.alt || v.src || v.id : null;
  return (
    <div className="media-slot" id={id} aria-disabled="true">
      <span className="media-slot__icon" aria-hidden="true">
        {field.type === 'image' ? 'IMG' : 'FILE'}
      </span>
      <div>
        <p className="media-slot__title">{label ? `Current ${field.type}: ${label}` : `No ${field.type} selected`}</p>
        <p className="field__hint">
          Choosing {field.type === 'image' ? 'images' : 'files'} needs the media library, which is not available on this
          site yet. The current value is kept when you save.
        </p>
      </div>
    </div>
  );
}
