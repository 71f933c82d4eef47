import type { AttemptRecord } from '../../src/trace/index.ts';

/** Pretty JSON when the arguments parse, else exactly as the model wrote them (a cut call stays visible). */
function argumentsText(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args || '(no arguments)';
  }
}

/**
 * The tool calls and reasoning an attempt came back with, beside its text. Model output is
 * rendered as text only (React escapes it), never as HTML.
 */
export function AttemptToolCalls({ record, testId }: { record: AttemptRecord; testId: string }) {
  const calls = record.toolCalls ?? [];
  if (calls.length === 0 && !record.reasoning) return null;
  return (
    <>
      {calls.length > 0 && (
        <div className="attempt-tool-calls" data-testid={`${testId}.tool-calls`}>
          <div className="muted small">Tool calls ({calls.length})</div>
          <ol className="tool-call-list">
            {calls.map((c, i) => (
              <li key={i} data-testid={`${testId}.tool-call.${i + 1}`}>
                <span className="tool-call-name">{c.name || '(no name)'}</span> <span className="muted small">{c.id}</span>
                <pre className="text-block">{argumentsText(c.arguments)}</pre>
              </li>
            ))}
          </ol>
        </div>
      )}
      {record.reasoning && (
        <details className="attempt-reasoning" data-testid={`${testId}.reasoning`}>
          <summary className="muted small">Reasoning returned beside the answer</summary>
          <pre className="text-block">{record.reasoning}</pre>
        </details>
      )}
    </>
  );
}
