import { useEffect, useState } from 'react';
import type { EndpointProfile } from '../../src/providers/index.ts';
import { openDb } from '../persistence/connection.ts';
import { deleteProfile, hasApiKey, loadProfiles, saveProfile } from '../persistence/profiles.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectProfiles } from '../stores/selectors.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import './profiles.css';
import { profileLabel } from './profile-label.ts';

/** Add and edit endpoint profiles. The demo profile is built in and cannot be changed. */
export default function ProfilesDialog({ onClose }: { onClose(): void }) {
  const profiles = useEditorStore(selectProfiles);
  const [editing, setEditing] = useState<EndpointProfile | 'new' | null>(() => (profiles.length > 1 ? null : 'new'));
  const [keyStored, setKeyStored] = useState(false);
  const editingId = editing && editing !== 'new' ? editing.id : null;
  const { pushToast, setProfiles, setActiveProfile } = useEditorStore.getState();

  useEffect(() => {
    let live = true;
    if (editingId) void openDb().then((db) => hasApiKey(db, editingId)).then((has) => live && setKeyStored(has));
    return () => {
      live = false;
    };
  }, [editingId]);

  const reload = async () => setProfiles(await loadProfiles(await openDb()));

  const onSave = async (profile: EndpointProfile, apiKey: string | undefined) => {
    await saveProfile(await openDb(), profile, apiKey);
    await reload();
    setActiveProfile(profile.id);
    pushToast('info', `Saved profile "${profile.name}"`);
    setEditing(null);
  };

  const onDelete = async (profile: EndpointProfile) => {
    await deleteProfile(await openDb(), profile.id);
    await reload();
    pushToast('info', `Deleted profile "${profile.name}"`);
    setEditing(null);
  };

  return (
    <Dialog title="Endpoint profiles" testId="profile.dialog" onClose={onClose} wide>
      <div className="profiles">
        <ul className="profiles-list">
          {profiles.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={editingId === p.id ? 'list-button is-open' : 'list-button'}
                disabled={p.kind === 'demo'}
                onClick={() => {
                  setKeyStored(false);
                  setEditing(p);
                }}
              >
                <span>{profileLabel(p)}</span>
                <span className="muted small">{p.kind === 'demo' ? 'built in, no key, no network' : p.kind === 'openai' ? 'OpenAI-compatible' : 'Anthropic'}</span>
              </button>
            </li>
          ))}
          <li>
            <button type="button" className="button small" data-testid="profile.new" onClick={() => setEditing('new')}>
              New profile
            </button>
          </li>
        </ul>
        <div className="profiles-form">
          {editing ? (
            <ProfileForm
              key={editingId ?? 'new'}
              profile={editing === 'new' ? null : editing}
              keyStored={editing !== 'new' && keyStored}
              onSave={(p, k) => onSave(p, k).catch((e: Error) => pushToast('error', `Could not save the profile: ${e.message}`))}
              onDelete={editing === 'new' ? undefined : () => void onDelete(editing)}
            />
          ) : (
            <p className="muted">Choose a profile to edit, or add a new one. API keys are kept in this browser only, apart from chains and runs.</p>
          )}
        </div>
      </div>
    </Dialog>
  );
}
