import { useState } from 'react';
import { parseRouteValue, routeValueText } from './route-value.ts';

export interface Route {
  equals?: unknown;
  /** Taken when the label is empty or missing, instead of on a value it equals (src/steps/router.ts). */
  when?: 'empty';
  to: string;
  label: string;
}

interface Props {
  id: string;
  testId: string;
  value: unknown;
  /** Steps a route may go to (every other step). */
  stepIds: readonly string[];
  onChange(routes: Route[]): void;
}

function asRoutes(value: unknown): Route[] {
  if (!Array.isArray(value)) return [];
  return value.map((r) => {
    const o = (r && typeof r === 'object' ? r : {}) as Partial<Route>;
    const base = { to: typeof o.to === 'string' ? o.to : '', label: typeof o.label === 'string' ? o.label : '' };
    // A route on an empty value keeps its kind through every edit of the table (it has no value to type).
    return o.when === 'empty' ? { when: 'empty' as const, ...base } : { equals: o.equals, ...base };
  });
}

/** A text box that commits on blur or Enter, so a half-typed value is never a route. */
function CommitInput({ value, label, className, placeholder, invalid, onCommit }: { value: string; label: string; className: string; placeholder: string; invalid?: boolean; onCommit(text: string): void }) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // The route changed underneath (undo, another tab): show the stored value.
    setSeen(value);
    setDraft(value);
  }
  const commit = () => draft !== value && onCommit(draft);
  return (
    <input
      className={invalid ? `${className} is-invalid` : className}
      aria-label={label}
      aria-invalid={invalid || undefined}
      placeholder={placeholder}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}

/** A router's routes as a table: when the label equals a value, go to a step; the edge shows the label text. */
export function RoutesField({ id, testId, value, stepIds, onChange }: Props) {
  const routes = asRoutes(value);
  const update = (i: number, patch: Partial<Route>) => onChange(routes.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="routes" id={id} data-testid={testId} role="group" aria-label="Routes">
      {routes.length > 0 && (
        <div className="route-row route-head muted small" aria-hidden="true">
          <span>When the label is</span>
          <span />
          <span>go to</span>
          <span>edge label</span>
          <span />
        </div>
      )}
      {routes.map((route, i) => {
        const n = i + 1;
        const onEmpty = route.when === 'empty';
        const missingValue = !onEmpty && (route.equals === '' || route.equals === undefined);
        return (
          <div className="route-row" key={i} data-testid={`route.${i}`}>
            {onEmpty ? (
              <span className="muted small" data-testid={`route.${i}.empty`} title="Taken when the label is missing, null, empty text, an empty list or an empty object">
                empty or missing
              </span>
            ) : (
              <CommitInput className="input mono route-value" label={`Route ${n}: label value`} placeholder="label value" invalid={missingValue} value={routeValueText(route.equals ?? '')} onCommit={(t) => update(i, { equals: parseRouteValue(t) })} />
            )}
            <span className="binding-arrow">→</span>
            <select className="input mono" aria-label={`Route ${n}: go to`} value={route.to} onChange={(e) => update(i, { to: e.target.value })}>
              {!stepIds.includes(route.to) && <option value={route.to}>{route.to || '(choose)'}</option>}
              {stepIds.map((sid) => (
                <option key={sid} value={sid}>
                  {sid}
                </option>
              ))}
            </select>
            <CommitInput className="input route-label" label={`Route ${n}: edge label`} placeholder="edge label" value={route.label} onCommit={(t) => update(i, { label: t })} />
            <button type="button" className="icon-button" aria-label={`Remove route ${n}`} title="Remove" onClick={() => onChange(routes.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
        );
      })}
      {routes.length === 0 && <div className="muted small">No routes yet: draw an edge from the router, or add one.</div>}
      <button type="button" className="button small" disabled={stepIds.length === 0} onClick={() => onChange([...routes, { equals: '', to: stepIds[0] ?? '', label: '' }])}>
        Add route
      </button>
      <button type="button" className="button small" disabled={stepIds.length === 0 || routes.some((r) => r.when === 'empty')} onClick={() => onChange([...routes, { when: 'empty', to: stepIds[0] ?? '', label: 'empty' }])}>
        Add route on empty
      </button>
    </div>
  );
}
