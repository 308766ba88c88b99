import { type MediaValue, mediaValue } from '../../../../../src/services/fields/media-value';
import { MediaChooser } from '../../../components/media/MediaChooser';
import type { InputProps } from './FieldInput';

type Stored = MediaValue;

/** What the field stores for a library item: the one builder the server's writers use too. */
export { mediaValue };

/** The MIME types a field accepts: its allowlist, else every image for an image field. */
export function acceptFor(
  type: 'image' | 'file',
  validation: Record<string, unknown> | undefined,
): string[] | undefined {
  const list = validation?.allowedMimeTypes;
  if (Array.isArray(list) && list.length) return list.filter((m): m is string => typeof m === 'string');
  return type === 'image' ? ['image/*'] : undefined;
}

/**
 * Image and file fields: the chosen item with its thumbnail, chosen from the
 * media library or uploaded through the media picker. Image fields also keep
 * alt text for this use (the library's alt text is the starting value).
 */
export function MediaInput({ field, value, onChange, id, describedBy, invalid, disabled }: InputProps) {
  const type = field.type === 'file' ? 'file' : 'image';
  const v = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Stored) : null;
  const mediaId = typeof v?.id === 'string' && v.id ? v.id : null;
  const provider = typeof v?.provider === 'string' ? v.provider : 'local';
  const external = v !== null && provider !== 'local';
  return (
    <div className="media-input" id={id}>
      <MediaChooser
        mediaId={external ? null : mediaId}
        fallbackLabel={v ? v.filename || v.alt || v.src || v.url || null : null}
        noun={type}
        accept={acceptFor(type, field.validation)}
        labelledBy={`${id}-label`}
        describedBy={describedBy}
        invalid={invalid}
        disabled={disabled}
        onPick={(item) => onChange(mediaValue(type, item, v))}
        onClear={() => onChange(null)}
      />
      {external ? (
        <p className="field__hint">
          Currently an asset of the “{provider}” provider ({String(v?.src ?? v?.url ?? v?.id)}). Choosing from the
          library replaces it.
        </p>
      ) : null}
      {type === 'image' && mediaId ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-alt`}>
            Alternative text <span className="field__optional">(for this use)</span>
          </label>
          <input
            id={`${id}-alt`}
            className="input input--small"
            disabled={disabled}
            value={typeof v?.alt === 'string' ? v.alt : ''}
            onChange={(e) => {
              const next: Stored = { ...(v as Stored) };
              if (e.target.value) next.alt = e.target.value;
              else delete next.alt;
              onChange(next);
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
