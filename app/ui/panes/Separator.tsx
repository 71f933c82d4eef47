import { useRef, useState } from 'react';
import { separatorKey } from './pane-size.ts';

export interface SeparatorProps {
  /** The axis it moves along: 'x' between columns, 'y' between rows. */
  axis: 'x' | 'y';
  label: string;
  testId?: string;
  /** The id of the pane it sizes (aria-controls). */
  controls: string;
  /** The controlled pane's size now, and its limits, for assistive technology. */
  value: number;
  min: number;
  max: number;
  /** +1 when moving right/down makes the controlled pane bigger, -1 when it makes it smaller. */
  grows: 1 | -1;
  /** A drag or key press begins: the owner notes the sizes it starts from and its limits. */
  onStart: () => void;
  /** The controlled pane should be `growth` pixels bigger than when this drag began. */
  onMove: (growth: number) => void;
  onEnd: () => void;
  /** Home, End and Enter: to the minimum, the maximum, or fold/unfold. */
  onJump?: (to: 'min' | 'max' | 'toggle') => void;
}

/**
 * A pane border that drags with the pointer and moves with the keys (the WAI-ARIA window
 * splitter pattern). It holds no sizes: it reports how far it moved and the owner decides.
 * The pointer is captured, so a fast drag over the canvas or an iframe never loses it.
 */
export function Separator({ axis, label, testId, controls, value, min, max, grows, onStart, onMove, onEnd, onJump }: SeparatorProps) {
  const origin = useRef<{ pointer: number; at: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const coord = (e: React.PointerEvent) => (axis === 'x' ? e.clientX : e.clientY);

  const end = (e: React.PointerEvent<HTMLDivElement>) => {
    if (!origin.current || origin.current.pointer !== e.pointerId) return;
    origin.current = null;
    setDragging(false);
    onEnd();
  };

  return (
    <div
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-controls={controls}
      aria-orientation={axis === 'x' ? 'vertical' : 'horizontal'}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      data-testid={testId}
      data-dragging={dragging || undefined}
      className={`resize-handle ${axis === 'x' ? 'is-vertical' : 'is-horizontal'}`}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault(); // no text selection while dragging
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.focus();
        origin.current = { pointer: e.pointerId, at: coord(e) };
        setDragging(true);
        onStart();
      }}
      onPointerMove={(e) => {
        if (origin.current?.pointer !== e.pointerId) return;
        onMove((coord(e) - origin.current.at) * grows);
      }}
      onPointerUp={end}
      onPointerCancel={end}
      onLostPointerCapture={end}
      onKeyDown={(e) => {
        const action = separatorKey(e.key, e.shiftKey, axis);
        if (!action) return;
        e.preventDefault();
        e.stopPropagation();
        if (action.kind === 'move') {
          onStart();
          onMove(action.delta * grows);
          onEnd();
        } else {
          onJump?.(action.kind);
        }
      }}
    />
  );
}
