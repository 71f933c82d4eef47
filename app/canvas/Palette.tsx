import { useReactFlow, useStoreApi } from '@xyflow/react';
import { stepRegistry, stepGroups } from '../../src/steps/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { NODE_HALF, STEP_DRAG_TYPE } from './palette-constants.ts';
import { selectChain } from '../stores/selectors.ts';


/** Repeated clicks would stack nodes exactly on top of each other: step down-right until free. */
function freeSpot(start: { x: number; y: number }): { x: number; y: number } {
  const taken = selectChain(useEditorStore.getState())?.steps.map((s) => s.position) ?? [];
  let spot = start;
  for (let i = 0; i < 50 && taken.some((p) => Math.abs(p.x - spot.x) < 24 && Math.abs(p.y - spot.y) < 24); i++) spot = { x: spot.x + 32, y: spot.y + 32 };
  return spot;
}

const groups = stepGroups
  .map((group) => ({ group, defs: stepRegistry.all().filter((d) => d.group === group) }))
  .filter((g) => g.defs.length > 0);

/**
 * Every registered kind, grouped as the registry says: click to add at the centre of the
 * canvas, or drag onto it. Lives in the sidebar, inside the app-wide ReactFlowProvider.
 */
export function Palette() {
  const addStep = useEditorStore((s) => s.addStep);
  const { screenToFlowPosition } = useReactFlow();
  const store = useStoreApi();

  const addAtCentre = (kind: string) => {
    if (!selectChain(useEditorStore.getState())) return;
    const { domNode } = store.getState();
    const rect = domNode?.getBoundingClientRect();
    const centre = rect ? screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }) : { x: 0, y: 0 };
    addStep(kind, freeSpot({ x: centre.x - NODE_HALF.x, y: centre.y - NODE_HALF.y }));
  };

  return (
    <section className="palette" aria-label="Steps">
      <div className="section-title">Steps</div>
      {groups.map(({ group, defs }) => (
        <div key={group} className="palette-group">
          <div className="palette-group-title">{group}</div>
          <div className="palette-items">
          {defs.map((def) => (
            <button
              key={def.kind}
              type="button"
              className="palette-item"
              data-testid={`palette.step.${def.kind}`}
              title={def.description}
              draggable
              onDragStart={(e) => {
                e.dataTransfer.setData(STEP_DRAG_TYPE, def.kind);
                e.dataTransfer.effectAllowed = 'copy';
              }}
              onClick={() => addAtCentre(def.kind)}
            >
              {def.title}
            </button>
          ))}
          </div>
        </div>
      ))}
    </section>
  );
}
