import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { stableStringify } from '../../../src/chain/index.ts';
import { checkJsonSchema } from './schema-check.ts';
import { monaco } from './setup.ts';

interface Props {
  /** Unique per step and field: it names the Monaco model. */
  modelPath: string;
  value: unknown;
  schemaHint?: 'jsonSchema' | 'json';
  onCommit(value: unknown): void;
  /** Told the reasons whenever the text stops or starts being savable, and [] when the editor closes. */
  onInvalid?(errors: string[]): void;
}

const MIN_HEIGHT = 96;
const MAX_HEIGHT = 420;

function pretty(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}

/**
 * Monaco on one JSON value. Text that is not JSON (or, for output schemas, not a valid JSON
 * Schema) is never committed: the chain keeps the last valid value and the reason is shown.
 */
export default function JsonEditor({ modelPath, value, schemaHint, onCommit, onInvalid }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const modelRef = useRef<monaco.editor.ITextModel | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const text = pretty(value);

  const onContent = useEffectEvent((content: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch (error) {
      setErrors([`Not valid JSON: ${(error as Error).message}`]);
      return;
    }
    const problems = schemaHint === 'jsonSchema' ? checkJsonSchema(parsed) : [];
    setErrors(problems.map((p) => `Not a valid JSON Schema: ${p}`));
    if (problems.length === 0 && stableStringify(parsed) !== stableStringify(value)) onCommit(parsed);
  });
  const initialText = useEffectEvent(() => text);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const uri = monaco.Uri.parse(`inmemory://seamscope/${encodeURIComponent(modelPath)}${schemaHint === 'jsonSchema' ? '.schema.json' : '.json'}`);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(initialText(), 'json', uri);
    modelRef.current = model;
    const editor = monaco.editor.create(element, {
      model,
      theme: 'vs',
      automaticLayout: true,
      minimap: { enabled: false },
      lineNumbers: 'off',
      glyphMargin: false,
      folding: true,
      fontSize: 12,
      tabSize: 2,
      wordWrap: 'on',
      scrollBeyondLastLine: false,
      renderLineHighlight: 'none',
      overviewRulerLanes: 0,
      fixedOverflowWidgets: true,
      // Enter always starts a new line (the JSON worker's suggestions arrive late and would take it); Tab accepts.
      acceptSuggestionOnEnter: 'off',
      scrollbar: { alwaysConsumeMouseWheel: false },
    });
    const fit = () => {
      element.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, editor.getContentHeight() + 8))}px`;
      editor.layout();
    };
    fit();
    const subs = [model.onDidChangeContent(() => onContent(model.getValue())), editor.onDidContentSizeChange(fit)];
    return () => {
      subs.forEach((s) => s.dispose());
      editor.dispose();
      model.dispose();
      modelRef.current = null;
    };
  }, [modelPath, schemaHint]);

  // Problems and Run follow what the editor holds; closing the editor discards its unsaved text.
  useEffect(() => {
    onInvalid?.(errors);
  }, [errors, onInvalid]);
  useEffect(() => () => onInvalid?.([]), [onInvalid]);

  // The value changed outside the editor (another edit, undo): show it unless the editor
  // already holds the same value.
  useEffect(() => {
    const model = modelRef.current;
    if (!model) return;
    try {
      if (stableStringify(JSON.parse(model.getValue())) === stableStringify(JSON.parse(text))) return;
    } catch {
      // The editor holds unfinished text; the outside value wins.
    }
    model.setValue(text);
  }, [text]);

  return (
    <>
      <div ref={host} className="json-editor" style={{ height: MIN_HEIGHT }} />
      {errors.map((e, i) => (
        <div key={i} className="field-error">
          {e}
        </div>
      ))}
      {errors.length > 0 && <div className="field-note">Not saved: the chain keeps the last valid value.</div>}
    </>
  );
}
