import { Fragment, useRef, type ReactNode } from 'react';
import { shiftBorder } from './pane-size.ts';
import { Separator } from './Separator.tsx';

export interface Column {
  id: string;
  node: ReactNode;
}

interface Props {
  className?: string;
  columns: Column[];
  /** Flex weights, one per column (null: equal widths). */
  weights: number[] | null;
  minWidth: number;
  /** The separator between column i and i + 1 is labelled `separatorLabel(i)`. */
  separatorLabel: (i: number) => string;
  onChange: (weights: number[]) => void;
  onCommit: () => void;
}

/**
 * Side-by-side columns whose borders drag and move with the arrows. Widths are kept as
 * weights (the pixels each had when last set), so they keep their proportions as the
 * container grows or shrinks; a border only trades width between its two neighbours.
 */
export function Columns({ className, columns, weights, minWidth, separatorLabel, onChange, onCommit }: Props) {
  const group = useRef<HTMLDivElement>(null);
  const from = useRef<number[] | null>(null);
  const widthsNow = () => [...(group.current?.children ?? [])].filter((el) => el.getAttribute('role') !== 'separator').map((el) => el.getBoundingClientRect().width);
  const shown = weights && weights.length === columns.length ? weights : null;
  return (
    <div ref={group} className={`columns${className ? ` ${className}` : ''}`}>
      {columns.map((column, i) => (
        <Fragment key={column.id}>
          {i > 0 && (
            <Separator
              axis="x"
              grows={1}
              label={separatorLabel(i - 1)}
              controls={columns[i - 1]?.id ?? ''}
              value={shown?.[i - 1] ?? 0}
              min={minWidth}
              max={shown ? (shown[i - 1] ?? 0) + (shown[i] ?? 0) - minWidth : 0}
              // Measured when a drag starts, not while rendering: the weights become pixels here.
              onStart={() => {
                from.current = widthsNow();
              }}
              onMove={(growth) => {
                const start = from.current;
                if (!start) return;
                const [a, b] = shiftBorder(start[i - 1] ?? 0, start[i] ?? 0, growth, minWidth, minWidth);
                onChange(start.map((w, j) => (j === i - 1 ? a : j === i ? b : Math.round(w))));
              }}
              onEnd={() => {
                from.current = null;
                onCommit();
              }}
            />
          )}
          <div id={column.id} data-testid={column.id} className="pane-fill column" style={{ flexGrow: shown?.[i] ?? 1, minWidth }}>
            {column.node}
          </div>
        </Fragment>
      ))}
    </div>
  );
}
