import { EvalTopbarStatus } from './evaluate/EvalTopbarStatus.tsx';
import { ViewSwitch } from './evaluate/ViewSwitch.tsx';
import { ExportButton } from './export/ExportButton.tsx';
import { ProfileSelect } from './profiles/ProfileSelect.tsx';
import { RunBar } from './runs/RunBar.tsx';
import { useEditorStore } from './stores/editor-store.ts';
import { selectChain } from './stores/selectors.ts';
import { usePaneLayout, type FoldablePane } from './ui/layout-context.ts';

/** A button that folds a side pane away or brings it back (the separator also drags it open). */
function PaneToggle({ pane, label, glyph }: { pane: FoldablePane; label: string; glyph: string }) {
  const { collapsed, toggle } = usePaneLayout();
  const text = `${collapsed[pane] ? 'Show' : 'Hide'} the ${label}`;
  return (
    <button type="button" className="icon-button pane-toggle" data-testid={`layout.toggle.${pane}`} aria-pressed={!collapsed[pane]} aria-label={text} title={text} onClick={() => toggle(pane)}>
      {glyph}
    </button>
  );
}

export function TopBar() {
  const chain = useEditorStore(selectChain);
  return (
    <header className="topbar">
      <div className="brand">
        <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width={18} height={18} />
        <span>Seamscope</span>
      </div>
      <ViewSwitch />
      <div className="topbar-chain" title={chain ? [chain.name, chain.description].filter(Boolean).join('\n') : undefined}>
        {chain ? chain.name : ''}
      </div>
      <EvalTopbarStatus />
      <div className="topbar-actions">
        <span className="pane-toggles">
          <PaneToggle pane="sidebar" label="library" glyph="◧" />
          <PaneToggle pane="inspector" label="inspector" glyph="◨" />
        </span>
        <ExportButton />
        <ProfileSelect />
        <RunBar />
      </div>
    </header>
  );
}
