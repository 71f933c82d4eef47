import { Panel } from '@xyflow/react';
import type { Chain } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectCompoundingOpen, selectOverlay } from '../stores/selectors.ts';
import { CompoundingPanel } from './CompoundingPanel.tsx';
import './designer.css';
import { EdgeHoverCard } from './EdgeHoverCard.tsx';
import { ShortcutsOverlay } from './ShortcutsOverlay.tsx';
import { TabConflictBanner } from './TabConflictBanner.tsx';
import { Toolbar } from './Toolbar.tsx';
import { useDesignerKeys } from './use-designer-keys.ts';


/**
 * Everything the designer adds on top of the canvas, loaded after the canvas first paints:
 * the toolbar, keyboard shortcuts and their help, the contract card under the pointer, the
 * compounding estimate and the other-tab banner. Rendered inside <ReactFlow> (it uses its hooks).
 */
export default function DesignerLayer({ chain }: { chain: Chain }) {
  useDesignerKeys();
  const overlay = useEditorStore(selectOverlay);
  const compounding = useEditorStore(selectCompoundingOpen);
  return (
    <>
      <Toolbar />
      <Panel position="top-center" className="tab-conflict-panel">
        <TabConflictBanner chainId={chain.id} />
      </Panel>
      {compounding && (
        <Panel position="top-right">
          <CompoundingPanel chain={chain} />
        </Panel>
      )}
      <EdgeHoverCard chain={chain} />
      {overlay === 'shortcuts' && <ShortcutsOverlay />}
    </>
  );
}
