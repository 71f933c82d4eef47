import { useEffect, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { openDb } from '../persistence/connection.ts';
import { getApiKey, hasApiKey, loadProfiles, saveProfile } from '../persistence/profiles.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectProfiles } from '../stores/selectors.ts';
import { Dialog } from '../ui/Dialog.tsx';
import type { ChainEndpoint } from './chain-endpoint.ts';

/**
 * A chain names an endpoint. Nothing is sent there until the person confirms it here; the
 * profile made from it starts without a key, and a key goes with it only when they choose one
 * of their own profiles' keys to send to this address.
 */
export default function EndpointConfirm({ chain, endpoint, onClose }: { chain: Chain; endpoint: ChainEndpoint; onClose(): void }) {
  const profiles = useEditorStore(selectProfiles);
  const [withKeys, setWithKeys] = useState<string[]>([]);
  const [keyFrom, setKeyFrom] = useState('');
  const [model, setModel] = useState(endpoint.model ?? '');

  useEffect(() => {
    let live = true;
    void openDb().then(async (db) => {
      const owned = [];
      for (const p of profiles) if (p.kind !== 'demo' && (await hasApiKey(db, p.id))) owned.push(p.id);
      if (live) setWithKeys(owned);
    });
    return () => {
      live = false;
    };
  }, [profiles]);

  const confirm = async () => {
    const { endpointProfileSchema } = await import('../../src/providers/index.ts');
    const db = await openDb();
    const profile = endpointProfileSchema.parse({
      id: `profile-${globalThis.crypto.randomUUID().slice(0, 8)}`,
      name: `${chain.name} endpoint`.slice(0, 200),
      kind: endpoint.protocol,
      baseUrl: endpoint.url,
      model: model.trim() || 'default',
    });
    const apiKey = keyFrom ? await getApiKey(db, keyFrom) : undefined;
    await saveProfile(db, profile, apiKey);
    const state = useEditorStore.getState();
    state.setProfiles(await loadProfiles(db));
    state.setActiveProfile(profile.id);
    state.pushToast('info', `Runs now go to ${endpoint.origin}${apiKey ? ' with the key you chose' : ' without a key'}`);
    onClose();
  };

  return (
    <Dialog
      title="This chain names an endpoint"
      testId="endpoint.confirm"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" data-testid="endpoint.confirm.no" onClick={onClose}>
            Not now
          </button>
          <button
            type="button"
            className="button primary"
            data-testid="endpoint.confirm.yes"
            onClick={() => void confirm().catch((e: Error) => useEditorStore.getState().pushToast('error', `Could not add the endpoint: ${e.message}`))}
          >
            Use this endpoint
          </button>
        </>
      }
    >
      <p>
        <strong>{chain.name}</strong> was written for <code className="mono" data-testid="endpoint.confirm.url">{endpoint.url}</code>.
      </p>
      <p className="muted small">
        Nothing has been sent there. Seamscope never sends an API key to an address you have not confirmed: until you do, runs of this chain go to the profile you selected.
      </p>
      <label className="field">
        <span className="field-label">Model</span>
        <input className="input" value={model} onChange={(e) => setModel(e.target.value)} placeholder="model name" />
      </label>
      <label className="field">
        <span className="field-label">API key to send to {endpoint.origin}</span>
        <select className="input" data-testid="endpoint.confirm.key" value={keyFrom} onChange={(e) => setKeyFrom(e.target.value)}>
          <option value="">No key</option>
          {profiles.filter((p) => withKeys.includes(p.id)).map((p) => (
            <option key={p.id} value={p.id}>
              The key of “{p.name}” ({p.baseUrl.replace(/^https?:\/\//, '').split('/')[0]})
            </option>
          ))}
        </select>
      </label>
    </Dialog>
  );
}
