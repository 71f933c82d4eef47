import { useEffect, useEffectEvent, useRef } from 'react';
import { monaco } from '../../inspector/monaco/setup.ts';

interface Props {
  /** Names the Monaco model; one per fork dialog. */
  modelPath: string;
  initialText: string;
  onChange(text: string): void;
}

const MIN_HEIGHT = 140;
const MAX_HEIGHT = 360;

/**
 * Monaco on the intermediate being edited. It reports every change as text; the dialog parses
 * and validates it against the step's output schema. Loaded only through import().
 */
export default function ForkEditor({ modelPath, initialText, onChange }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const report = useEffectEvent((text: string) => onChange(text));
  const initial = useEffectEvent(() => initialText);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const uri = monaco.Uri.parse(`inmemory://seamscope/fork/${encodeURIComponent(modelPath)}.json`);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(initial(), 'json', uri);
    const editor = monaco.editor.create(element, {
      model, theme: 'vs', automaticLayout: true, minimap: { enabled: false }, lineNumbers: 'off', glyphMargin: false, folding: true,
      fontSize: 12, tabSize: 2, wordWrap: 'on', scrollBeyondLastLine: false, renderLineHighlight: 'none', overviewRulerLanes: 0,
      fixedOverflowWidgets: true, scrollbar: { alwaysConsumeMouseWheel: false },
      // Enter always starts a new line (suggestions arrive late and would take it); Tab accepts.
      acceptSuggestionOnEnter: 'off',
    });
    const fit = () => {
      element.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, editor.getContentHeight() + 8))}px`;
      editor.layout();
    };
    fit();
    const subs = [model.onDidChangeContent(() => report(model.getValue())), editor.onDidContentSizeChange(fit)];
    return () => {
      subs.forEach((s) => s.dispose());
      editor.dispose();
      model.dispose();
    };
  }, [modelPath]);

  return <div ref={host} className="json-editor" style={{ height: MIN_HEIGHT }} />;
}
