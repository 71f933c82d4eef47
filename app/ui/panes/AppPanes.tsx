import { useRef, type CSSProperties, type ReactNode } from 'react';
import { resolveSize, startSize, type PaneLimits, type PaneState } from './pane-size.ts';
import { usePaneStore, WORKSPACE_MIN, type PaneId } from './pane-store.ts';
import { Separator } from './Separator.tsx';

/** A folded replay keeps its header's first line: the fold button, the run and Close stay in reach. */
export const REPLAY_FOLDED_PX = 40;
const TOP_BAR = 44;

interface PaneSpec {
  axis: 'x' | 'y';
  /** +1: moving the separator right/down grows the pane (the sidebar); -1: shrinks it. */
  grows: 1 | -1;
  label: string;
  /** Its size while folded (0: gone, the separator stays to drag it back). */
  folded: number;
  limits: () => PaneLimits;
}

// Limits from the window, not from measuring the DOM: the app fills the viewport, and reading
// layout while React Flow mounts a large chain would force a synchronous reflow.
const SPECS: Record<PaneId, PaneSpec> = {
  sidebar: { axis: 'x', grows: 1, label: 'Resize the library', folded: 0, limits: () => ({ min: 200, max: 420, collapsible: true }) },
  inspector: {
    axis: 'x', grows: -1, label: 'Resize the inspector', folded: 0,
    limits: () => ({ min: 280, max: Math.max(280, Math.round(window.innerWidth * 0.6)), collapsible: true }),
  },
  replay: {
    axis: 'y', grows: -1, label: 'Resize the replay', folded: REPLAY_FOLDED_PX,
    limits: () => ({ min: 180, max: Math.max(180, window.innerHeight - TOP_BAR - WORKSPACE_MIN), collapsible: true }),
  },
};

/** A resizable app pane: it alone re-renders while it is dragged, its children do not. */
export function Pane({ id, className, children }: { id: PaneId; className?: string; children: ReactNode }) {
  const state = usePaneStore((s) => s.panes[id]);
  const spec = SPECS[id];
  const size = state.collapsed ? spec.folded : state.size;
  const style: CSSProperties = spec.axis === 'x' ? { flexBasis: size } : { height: size };
  return (
    <div
      id={`pane.${id}`}
      data-testid={`pane.${id}`}
      className={`pane-fill pane-sized pane-${id}${className ? ` ${className}` : ''}`}
      data-collapsed={state.collapsed || undefined}
      hidden={state.collapsed && spec.folded === 0}
      style={style}
    >
      {children}
    </div>
  );
}

/** The separator that sizes one app pane: drag, arrows, Home/End, Enter to fold. */
export function PaneSeparator({ id }: { id: PaneId }) {
  const state = usePaneStore((s) => s.panes[id]);
  const spec = SPECS[id];
  const from = useRef<{ state: PaneState; limits: PaneLimits } | null>(null);
  const limits = spec.limits();
  const { setPane, commit, toggle } = usePaneStore.getState();
  return (
    <Separator
      axis={spec.axis}
      grows={spec.grows}
      label={spec.label}
      testId={`pane.${id}.handle`}
      controls={`pane.${id}`}
      value={state.collapsed ? spec.folded : state.size}
      min={limits.min}
      max={limits.max}
      onStart={() => {
        from.current = { state: usePaneStore.getState().panes[id], limits: spec.limits() };
      }}
      onMove={(growth) => {
        const start = from.current;
        if (start) setPane(id, resolveSize(startSize(start.state, spec.folded) + growth, start.limits));
      }}
      onEnd={() => {
        from.current = null;
        commit();
      }}
      onJump={(to) => {
        if (to === 'toggle') return toggle(id);
        const l = spec.limits();
        setPane(id, { size: to === 'min' ? l.min : l.max, collapsed: false });
        commit();
      }}
    />
  );
}
