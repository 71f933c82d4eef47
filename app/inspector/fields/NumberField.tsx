import { useState } from 'react';

interface Props {
  id: string;
  testId: string;
  value: unknown;
  min?: number;
  max?: number;
  step?: number;
  onChange(value: number): void;
}

/**
 * Keeps what is typed locally and writes only numbers in range, so an empty box or a
 * half-typed "0." never reaches the chain. Remounted (keyed) per step.
 */
export function NumberField({ id, testId, value, min, max, step, onChange }: Props) {
  const [text, setText] = useState(typeof value === 'number' ? String(value) : '');
  // An outside change (undo, a restored revision) replaces what is shown; typing does not.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (typeof value === 'number' && Number(text) !== value) setText(String(value));
  }
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(n) && (min === undefined || n >= min) && (max === undefined || n <= max);
  return (
    <>
      <input
        id={id}
        data-testid={testId}
        className={valid ? 'input' : 'input is-invalid'}
        type="number"
        value={text}
        min={min}
        max={max}
        step={step ?? 1}
        onChange={(e) => {
          setText(e.target.value);
          const next = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(next) && (min === undefined || next >= min) && (max === undefined || next <= max)) onChange(next);
        }}
      />
      {!valid && <div className="field-error">Enter a number{min !== undefined ? ` from ${min}` : ''}{max !== undefined ? ` to ${max}` : ''}</div>}
    </>
  );
}
