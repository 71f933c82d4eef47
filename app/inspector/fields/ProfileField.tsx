import { useEditorStore } from '../../stores/editor-store.ts';
import { selectProfiles } from '../../stores/selectors.ts';

interface Props {
  id: string;
  testId: string;
  value: unknown;
  onChange(value: string): void;
}

/**
 * Which endpoint profile the step calls, by name: a cheap local model for extraction, a strong
 * one for the answer. Empty means the profile the run is started with. A name this browser has
 * no profile for (a chain from a colleague) is kept and flagged; the run refuses to start until
 * a profile of that name exists.
 */
export function ProfileField({ id, testId, value, onChange }: Props) {
  const profiles = useEditorStore(selectProfiles);
  const current = typeof value === 'string' ? value : '';
  const names = [...new Set(profiles.map((p) => p.name))];
  const missing = current !== '' && !names.includes(current);
  return (
    <>
      <select id={id} data-testid={testId} className={missing ? 'input is-invalid' : 'input'} value={current} onChange={(e) => onChange(e.target.value)}>
        <option value="">The run's profile</option>
        {missing && <option value={current}>{current} (no such profile here)</option>}
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {missing && <div className="field-error">No profile named "{current}" on this device: add one under Profiles…, or pick another.</div>}
    </>
  );
}
