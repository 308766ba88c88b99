import type { KeyboardEvent, MouseEvent } from 'react';
import type { MediaItem } from '../../api/media';
import { Button } from '../../components/Button';

type Point = { x: number; y: number };

const round = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 1000) / 1000;

/**
 * Where the subject of an image is: a click on the image sets the focal point that crops
 * (`fit=cover`, docs/media.md "Focal point") keep in frame, shown as a marker; arrow keys move it
 * by 5 %; "Reset to centre" clears it. Saved with the rest of the details form.
 */
export function FocalPointPicker({
  item,
  value,
  onValue,
}: {
  item: MediaItem;
  value: Point | null;
  onValue: (p: Point | null) => void;
}) {
  const shown = value ?? { x: 0.5, y: 0.5 };
  const pick = (e: MouseEvent<HTMLButtonElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    onValue({ x: round((e.clientX - box.left) / box.width), y: round((e.clientY - box.top) / box.height) });
  };
  const nudge = (e: KeyboardEvent<HTMLButtonElement>) => {
    const step = { ArrowLeft: [-0.05, 0], ArrowRight: [0.05, 0], ArrowUp: [0, -0.05], ArrowDown: [0, 0.05] }[e.key];
    if (!step) return;
    e.preventDefault();
    onValue({ x: round(shown.x + step[0]), y: round(shown.y + step[1]) });
  };
  const label = value
    ? `Focal point at ${Math.round(value.x * 100)} % across, ${Math.round(value.y * 100)} % down`
    : 'Focal point: the centre';
  return (
    <div className="focal-picker stack">
      <span className="field__label">Focal point</span>
      <button
        type="button"
        className="focal-picker__image"
        onClick={pick}
        onKeyDown={nudge}
        aria-label={`${label}. Click the image where its subject is, or use the arrow keys.`}
        data-testid="focal-point-picker"
      >
        <img src={item.url} alt="" draggable={false} />
        <span
          className="focal-picker__marker"
          data-testid="focal-point-marker"
          style={{ left: `${shown.x * 100}%`, top: `${shown.y * 100}%` }}
        />
      </button>
      <div className="actions">
        <span className="muted">{label}. Crops keep it in frame.</span>
        <Button size="small" variant="ghost" onClick={() => onValue(null)} disabled={value === null}>
          Reset to centre
        </Button>
      </div>
    </div>
  );
}
