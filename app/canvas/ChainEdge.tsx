import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import type { FlowEdge } from './flow-elements.ts';

/**
 * A bezier edge whose label sits where edge-labels.ts found open canvas, instead of at the
 * midpoint (which, for an edge that skips a column, is under a card).
 */
export function ChainEdge(props: EdgeProps<FlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data } = props;
  const [path, midX, midY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const at = data?.labelAt;
  return (
    <BaseEdge
      id={props.id}
      path={path}
      markerStart={props.markerStart}
      markerEnd={props.markerEnd}
      style={props.style}
      interactionWidth={props.interactionWidth}
      label={props.label}
      labelX={at?.x ?? midX}
      labelY={at?.y ?? midY}
      labelStyle={props.labelStyle}
      labelShowBg={props.labelShowBg}
      labelBgStyle={props.labelBgStyle}
      labelBgPadding={props.labelBgPadding}
      labelBgBorderRadius={props.labelBgBorderRadius}
    />
  );
}
