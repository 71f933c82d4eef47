import { useRef, useState, type KeyboardEvent } from 'react';
import { findPlaceholders } from '../../../src/chain/index.ts';
import { acceptSuggestion, filterSuggestions, openPlaceholder, type Suggestion } from '../../designer/template-suggest.ts';

interface Props {
  id: string;
  testId: string;
  value: unknown;
  rows?: number;
  /** When set, `{placeholder}`s are checked against these binding names. */
  bindings: readonly string[] | null;
  /** What `{` can complete to (bindings, upstream schema fields, unbound inputs and steps). */
  suggestions?: () => Suggestion[];
  onChange(value: string): void;
  /** A picked suggestion that adds a binding, applied with the text as one edit. */
  onPick?(text: string, suggestion: Suggestion): void;
}

interface Open {
  start: number;
  caret: number;
  items: Suggestion[];
  index: number;
}

/**
 * A prompt template. Typing `{` opens a short list of what can go there; Enter or Tab picks,
 * Escape closes. A placeholder that names no binding is reported right under the box.
 */
export function TemplateField({ id, testId, value, rows, bindings, suggestions, onChange, onPick }: Props) {
  const text = typeof value === 'string' ? value : '';
  const unknown = bindings ? [...new Set(findPlaceholders(text).filter((p) => !bindings.includes(p.binding)).map((p) => p.name))] : [];
  const box = useRef<HTMLTextAreaElement>(null);
  const [open, setOpen] = useState<Open | null>(null);

  const refresh = (next: string, caret: number) => {
    const at = suggestions ? openPlaceholder(next, caret) : null;
    const items = at && suggestions ? filterSuggestions(suggestions(), at.query) : [];
    setOpen(at && items.length ? { start: at.start, caret, items, index: 0 } : null);
  };

  const pick = (s: Suggestion) => {
    if (!open) return;
    const done = acceptSuggestion(text, open.caret, open.start, s.name);
    setOpen(null);
    if (s.addBinding && onPick) onPick(done.text, s);
    else onChange(done.text);
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(done.caret, done.caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setOpen({ ...open, index: (open.index + step + open.items.length) % open.items.length });
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      const chosen = open.items[open.index];
      if (chosen) pick(chosen);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setOpen(null);
    }
  };

  return (
    <div className="template-field">
      <textarea
        ref={box}
        id={id}
        data-testid={testId}
        className="input mono"
        rows={rows ?? 4}
        value={text}
        spellCheck={false}
        aria-autocomplete={suggestions ? 'list' : undefined}
        // A textbox may not say "expanded"; it points at the open list and its active option instead.
        aria-controls={open ? `${id}-suggest` : undefined}
        aria-activedescendant={open ? `${id}-suggest-${open.index}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          refresh(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(null), 150)}
      />
      {open && (
        <ul className="template-suggest" role="listbox" id={`${id}-suggest`} aria-label="Placeholders" data-testid="template.suggest">
          {open.items.map((s, i) => (
            <li key={s.name} id={`${id}-suggest-${i}`} role="option" aria-selected={i === open.index}>
              <button
                type="button"
                className={i === open.index ? 'suggest-item is-active' : 'suggest-item'}
                data-testid="template.suggest.item"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
              >
                <span className="mono">{`{${s.name}}`}</span>
                <span className="muted tiny">{s.detail}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {unknown.map((name) => (
        <div key={name} className="field-error">
          {`{${name}} names no binding: add "${name.split('.')[0]}" under reads`}
        </div>
      ))}
    </div>
  );
}
