import { lazy, Suspense, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectProfiles } from '../stores/selectors.ts';
import { chainEndpoint, profileForEndpoint } from './chain-endpoint.ts';

const EndpointConfirm = lazy(() => import('./EndpointConfirm.tsx'));

/** In the chain panel: the endpoint this chain names, not used until confirmed. */
export default function EndpointNotice({ chain }: { chain: Chain }) {
  const profiles = useEditorStore(selectProfiles);
  const [asking, setAsking] = useState(false);
  const endpoint = chainEndpoint(chain);
  if (!endpoint) return null;
  const profile = profileForEndpoint(profiles, endpoint);
  return (
    <div className="field endpoint-notice" data-testid="chain.endpoint">
      <div className="field-label">Endpoint named by this chain</div>
      <code className="mono small">{endpoint.url}</code>
      {profile ? (
        <div className="muted small">Your profile “{profile.name}” uses this address.</div>
      ) : (
        <div className="muted small">
          Not used, and no key is sent there, until you confirm it.{' '}
          <button type="button" className="link-button" data-testid="chain.endpoint.use" onClick={() => setAsking(true)}>
            Review…
          </button>
        </div>
      )}
      {asking && (
        <Suspense fallback={null}>
          <EndpointConfirm chain={chain} endpoint={endpoint} onClose={() => setAsking(false)} />
        </Suspense>
      )}
    </div>
  );
}
