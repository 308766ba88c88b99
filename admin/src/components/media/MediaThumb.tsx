import { useState } from 'react';
import type { MediaItem } from '../../api/media';
import { isPreviewable, placeholderUrl, typeLabel } from '../../lib/media';

/**
 * A square preview: the image over its ThumbHash placeholder until it has
 * loaded, or a type badge for files a browser cannot show as an image. The
 * image comes from the item's immutable address, so a replaced file shows at
 * once. Decorative: the surrounding control names the file.
 */
export function MediaThumb({ item }: { item: MediaItem }) {
  const [loaded, setLoaded] = useState(false);
  const placeholder = placeholderUrl(item.placeholder);
  const style = placeholder && !loaded ? { backgroundImage: `url(${placeholder})` } : undefined;
  if (isPreviewable(item.mimeType)) {
    return (
      <span className="media-thumb" style={style}>
        <img src={item.immutableUrl} alt="" loading="lazy" decoding="async" onLoad={() => setLoaded(true)} />
      </span>
    );
  }
  return (
    <span
      className="media-thumb media-thumb--file"
      style={placeholder ? { backgroundImage: `url(${placeholder})` } : undefined}
    >
      <span className="media-thumb__type">{typeLabel(item.mimeType)}</span>
    </span>
  );
}
