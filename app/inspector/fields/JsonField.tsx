import { lazy, Suspense, useCallback } from 'react';
import { useEditorStore } from '../../stores/editor-store.ts';

// Monaco (~1 MB gzip) is fetched the first time a JSON field is shown, never at start-up.
const JsonEditor = lazy(() => import('../monaco/JsonEditor.tsx'));

interface Props {
  testId: string;
  modelPath: string;
  value: unknown;
  schemaHint?: 'jsonSchema' | 'json';
  onCommit(value: unknown): void;
  /** The step and field label, so text that cannot be saved shows in Problems and blocks Run. */
  stepId: string;
  fieldLabel: string;
}

export function JsonField({ testId, modelPath, value, schemaHint, onCommit, stepId, fieldLabel }: Props) {
  const setUnsavedEdit = useEditorStore((s) => s.setUnsavedEdit);
  const onInvalid = useCallback((errors: string[]) => {
    const [first] = errors;
    setUnsavedEdit(modelPath, first ? { stepId, field: fieldLabel, message: first } : null);
  }, [stepId, fieldLabel, modelPath, setUnsavedEdit]);
  return (
    <div className="json-field" data-testid={testId}>
      <Suspense fallback={<pre className="json-fallback">{JSON.stringify(value ?? null, null, 2)}</pre>}>
        <JsonEditor modelPath={modelPath} value={value} schemaHint={schemaHint} onCommit={onCommit} onInvalid={onInvalid} />
      </Suspense>
    </div>
  );
}
