import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import { edgeLabelSize } from './edge-label-size.ts';
import type { FlowEdge } from './flow-elements.ts';

// React Flow's EdgeText defaults: background padding [x, y] and corner radius.
const PAD_X = 2;
const PAD_Y = 4;
const RADIUS = 2;

/**
 * The label as React Flow's EdgeText draws it (same elements and classes, so styles and hover
 * targets are unchanged), sized from the font's metrics (edge-label-size.ts) instead of a
 * getBBox per mounted label and a second render at the measured size.
 */
function EdgeLabel({ x, y, label }: { x: number; y: number; label: string }) {
  const { width, height } = edgeLabelSize(label);
  return (
    <g transform={`translate(${x - width / 2} ${y - height / 2})`} className="react-flow__edge-textwrapper">
      <rect width={width + 2 * PAD_X} x={-PAD_X} y={-PAD_Y} height={height + 2 * PAD_Y} className="react-flow__edge-textbg" rx={RADIUS} ry={RADIUS} />
      <text className="react-flow__edge-text" y={height / 2} dy="0.3em">
        {label}
      </text>
    </g>
  );
}

/**
 * Every edge of a chain: a bezier (React Flow's default) whose label sits where edge-labels.ts
 * found open canvas, else at the midpoint (which, for an edge that skips a column, can be under
 * a card). Memoised as React Flow's own edges are.
 */
export const ChainEdge = memo(function ChainEdge(props: EdgeProps<FlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, label } = props;
  const [path, midX, midY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const at = data?.labelAt;
  return (
    <>
      <BaseEdge id={props.id} path={path} markerStart={props.markerStart} markerEnd={props.markerEnd} style={props.style} interactionWidth={props.interactionWidth} />
      {typeof label === 'string' && label !== '' && <EdgeLabel x={at?.x ?? midX} y={at?.y ?? midY} label={label} />}
    </>
  );
});
