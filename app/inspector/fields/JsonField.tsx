import { lazy, Suspense } from 'react';

// Monaco (~1 MB gzip) is fetched the first time a JSON field is shown, never at start-up.
const JsonEditor = lazy(() => import('../monaco/JsonEditor.tsx'));

interface Props {
  testId: string;
  modelPath: string;
  value: unknown;
  schemaHint?: 'jsonSchema' | 'json';
  onCommit(value: unknown): void;
}

export function JsonField({ testId, modelPath, value, schemaHint, onCommit }: Props) {
  return (
    <div className="json-field" data-testid={testId}>
      <Suspense fallback={<pre className="json-fallback">{JSON.stringify(value ?? null, null, 2)}</pre>}>
        <JsonEditor modelPath={modelPath} value={value} schemaHint={schemaHint} onCommit={onCommit} />
      </Suspense>
    </div>
  );
}
