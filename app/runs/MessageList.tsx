import type { PromptSegment } from '../../src/trace/index.ts';
import type { ChatMessage } from '../../src/providers/index.ts';

/** Messages exactly as sent, each labelled by role, then the segments with their token counts. */
export function MessageList({ messages, segments }: { messages: readonly ChatMessage[]; segments: readonly PromptSegment[] }) {
  const total = segments.reduce((n, s) => n + s.tokens, 0);
  return (
    <>
      {messages.map((m, i) => (
        <div key={i} className={`message role-${m.role}`}>
          <div className="message-role">{m.role}</div>
          <pre className="text-block">{m.content}</pre>
        </div>
      ))}
      {segments.length > 0 && (
        <div className="pane-subtitle">
          Segments <span className="muted">{total} tokens</span>
        </div>
      )}
      <table className="segments">
        <tbody>
          {segments.map((s, i) => (
            <tr key={i}>
              <td className="mono">{s.kind}</td>
              <td className="num">{s.tokens}</td>
              <td className="muted small">{s.untrusted ? 'untrusted, framed as data' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
