import type { Boundary } from '../trace/replay.ts';
import type { PromptSegment } from '../trace/events.ts';

/**
 * Reads the consumer's side of a boundary from what it actually received: the question it
 * was answering, its own instructions, and which sources it was handed directly. Works on
 * the recorded segments, so the intermediate's own text ("…deadline…") is never mistaken
 * for something the consumer was asked.
 */

const questionBinding = /^binding:(?:[\w.]*[._])?(?:question|query)(?:[._][\w.]*)?$/i;
const questionLabel = /^\s*(?:the )?(?:member'?s |user'?s |customer'?s )?(?:question|query)\s*:\s*(.*)$/i;
const isInstruction = (s: PromptSegment) => s.kind === 'template' || s.kind === 'system';

const firstLine = (text: string) => text.split('\n').map((l) => l.trim()).find(Boolean) ?? null;
const unquote = (text: string) => text.replace(/^["“']|["”']$/g, '').trim();

/** The question: a bound `question`/`query` value, a "Question:" label, or the last line ending in "?". */
export function findQuestion(boundary: Boundary): string | null {
  const segments = boundary.received?.segments ?? [];
  const bound = segments.find((s) => questionBinding.test(s.kind) && s.text.trim());
  if (bound) return unquote(bound.text.trim());
  let asked: string | null = null;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as PromptSegment;
    // A question may also sit in a binding the producer never saw (a "ticket", a "request").
    const own = isInstruction(segment) || (segment.kind.startsWith('binding:') && !isHandedOver(boundary, segment));
    if (!own) continue;
    const lines = segment.text.split('\n');
    for (const [n, line] of lines.entries()) {
      const label = isInstruction(segment) ? questionLabel.exec(line) : null;
      if (label) {
        const rest = label[1]?.trim() || lines.slice(n + 1).map((l) => l.trim()).find(Boolean) || (segments[i + 1] ? firstLine(segments[i + 1]!.text) : null);
        if (rest) return unquote(rest);
      } else if (line.trim().endsWith('?') && line.length <= 500) asked = line.trim();
    }
  }
  if (asked || segments.length > 0) return asked && unquote(asked);
  // No segments recorded (an imported trace): fall back to the last question-like user line.
  for (const message of boundary.received?.messages ?? []) {
    if (message.role !== 'user') continue;
    for (const line of message.content.split('\n')) if (line.trim().endsWith('?') && line.length <= 500) asked = line.trim();
  }
  return asked && unquote(asked);
}

/** The consumer's own instructions: its template and system text, without any bound values. */
export function instructionText(boundary: Boundary): string {
  return (boundary.received?.segments ?? []).filter(isInstruction).map((s) => s.text).join('\n');
}

const sameText = (a: string, b: string) => a.trim().length > 0 && a.trim() === b.trim();

/**
 * Whether a binding segment carries the intermediate or a source document, whose own "?"
 * lines are material rather than the question. A short source (the question itself, read by
 * a question-conditioned producer too) is still the consumer's question.
 */
function isHandedOver(boundary: Boundary, segment: PromptSegment): boolean {
  if (segment.kind === `binding:${boundary.binding}` || segment.kind.startsWith(`binding:${boundary.binding}.`)) return true;
  return segment.text.length > 500 && boundary.sources.some((s) => sameText(s.text, segment.text));
}

/**
 * The chain inputs the consumer was itself given whole, beside the handoff: for a model step,
 * those whose text is in its prompt as a binding (one its budget cut is not); for a step that
 * makes no model call (retrieve, a gate, code), every input it binds.
 */
export function directInputs(boundary: Boundary): { name: string; text: string }[] {
  const inputs = boundary.consumerInputs ?? [];
  if (!boundary.received || inputs.length === 0) return inputs;
  const bound = boundary.received.segments.filter((s) => s.kind.startsWith('binding:'));
  return inputs.filter((input) => bound.some((s) => sameText(s.text, input.text)));
}

/** Names of the producer's sources that the consumer was also given verbatim. */
export function receivedSources(boundary: Boundary): string[] {
  if (!boundary.received) {
    const direct = directInputs(boundary).map((i) => i.name);
    return boundary.sources.filter((source) => direct.includes(source.name)).map((s) => s.name);
  }
  const bound = boundary.received.segments.filter((s) => s.kind.startsWith('binding:'));
  return boundary.sources.filter((source) => bound.some((s) => sameText(s.text, source.text))).map((s) => s.name);
}
