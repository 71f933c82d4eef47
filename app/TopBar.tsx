import { ExportButton } from './export/ExportButton.tsx';
import { ProfileSelect } from './profiles/ProfileSelect.tsx';
import { RunBar } from './runs/RunBar.tsx';
import { useEditorStore } from './stores/editor-store.ts';
import { selectChain } from './stores/selectors.ts';

export function TopBar() {
  const chain = useEditorStore(selectChain);
  return (
    <header className="topbar">
      <div className="brand">
        <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width={18} height={18} />
        <span>Seamscope</span>
      </div>
      <div className="topbar-chain" title={chain?.description}>
        {chain ? chain.name : ''}
      </div>
      <div className="topbar-actions">
        <ExportButton />
        <ProfileSelect />
        <RunBar />
      </div>
    </header>
  );
}
