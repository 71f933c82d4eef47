import { lazy, Suspense, useState } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectActiveProfileId, selectProfiles } from '../stores/selectors.ts';
import { profileLabel } from './profile-label.ts';

// The dialog (and the profile schema it validates with) loads when first opened.
const ProfilesDialog = lazy(() => import('./ProfilesDialog.tsx'));

/** Which endpoint runs use. The offline demo model is the default and needs no key. */
export function ProfileSelect() {
  const profiles = useEditorStore(selectProfiles);
  const activeId = useEditorStore(selectActiveProfileId);
  const setActive = useEditorStore((s) => s.setActiveProfile);
  const [managing, setManaging] = useState(false);
  return (
    <div className="profile-select">
      <label className="visually-hidden" htmlFor="profile-select">
        Endpoint profile
      </label>
      <select id="profile-select" className="input" data-testid="profile.select" value={activeId} onChange={(e) => setActive(e.target.value)}>
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {profileLabel(p)}
          </option>
        ))}
      </select>
      <button type="button" className="button" data-testid="profile.manage" onClick={() => setManaging(true)}>
        Profiles…
      </button>
      {managing && (
        <Suspense fallback={null}>
          <ProfilesDialog onClose={() => setManaging(false)} />
        </Suspense>
      )}
    </div>
  );
}
