import { describe, expect, it } from 'vitest';
import { readCorpus } from '../testing/corpus.ts';
import { stepRegistry } from '../steps/index.ts';
import { importTraceText } from '../formats/index.ts';
import { buildSpanTree, MAX_TREE_SPANS, spanKindOf, traceNameOf, type SpanLike, type SpanNode } from './span-tree.ts';

/** A real trace from the corpus, imported as the app and the CLI import it. */
function imported(relative: string) {
  const result = importTraceText(readCorpus(relative), stepRegistry);
  if (!result.ok) throw new Error(result.message);
  return result.run;
}

/** The tree as indented lines: "kind name [→ step]". */
const outline = (nodes: readonly SpanNode[] = []) => nodes.map((n) => `${'  '.repeat(n.depth)}${n.kind} ${n.name}${n.stepId ? ` → ${n.stepId}` : ''}`);

const span = (key: string, parentKey: string | null, startMs: number, endMs: number, attrs: Record<string, unknown> = {}, order = 0): SpanLike =>
  ({ key, parentKey, name: key, startMs, endMs, attrs, status: { code: 0 }, order });

describe('the span tree of real traces', () => {
  it('OpenAI Agents (Langfuse export): the workflow, the agent, its two model calls and the tool between them', () => {
    const run = imported('vendor-traces/langfuse-export-openai-agents-2025-09-30.trace.json');
    expect(run.chainName).toBe('Agent workflow');
    expect(outline(run.spans)).toEqual([
      'agent Agent workflow',
      '  agent Hello world',
      '    model response → response',
      '    tool get_weather',
      '    model response → response_2',
    ]);
    // Times are from the trace's start, on one axis: the tool runs between the two calls.
    const [, , first, tool, second] = run.spans ?? [];
    expect(first && tool && second && first.startMs + first.durationMs <= tool.startMs && tool.startMs <= second.startMs).toBe(true);
  });

  it('Google ADK (Langfuse export): invocation → agent → model call → the tool it asked for', () => {
    const run = imported('vendor-traces/langfuse-export-google-adk-2025-08-28.trace.json');
    expect(outline(run.spans)).toEqual([
      'chain invocation [hello_app]',
      '  agent agent_run [hello_agent]',
      '    model call_llm → call_llm',
      '      tool execute_tool say_hello',
      '    model call_llm → call_llm_2',
    ]);
  });

  it('Claude Agent SDK (Langfuse export): the tool calls sit between the turns under the conversation', () => {
    const run = imported('vendor-traces/langfuse-export-claude-agent-2025-12-22.trace.json');
    const lines = outline(run.spans);
    expect(lines[0]).toBe('span claude.conversation');
    expect(lines.filter((l) => l.startsWith('  tool mcp__weather__get_weather'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('  model claude.assistant.turn'))).toHaveLength(4);
  });

  it('a Vercel AI SDK OTLP file whose spans carry no parent links stays flat (nothing invented), each call marked', () => {
    const run = imported('traces/otlp/vercel-ai-sdk-v6-openai.otlp.json');
    expect(run.spans?.every((n) => n.depth === 0 && n.parent === null)).toBe(true);
    expect(run.spans?.filter((n) => n.kind === 'model').map((n) => n.stepId)).toEqual([
      'ai_generateText_doGenerate', 'ai_generateText_doGenerate_2', 'ai_generateObject_doGenerate', 'ai_streamText_doStream',
    ]);
    expect(run.spans?.filter((n) => n.kind === 'chain').map((n) => n.name)).toEqual(['ai.generateText', 'ai.generateText', 'ai.generateObject', 'ai.streamText']);
  });

  it('a single-span capture is named after its span', () => {
    expect(imported('traces/otlp/openllmetry-0.33.9-openai-chat.otlp.json')).toMatchObject({ chainName: 'openai.chat', spans: [{ kind: 'model', depth: 0 }] });
  });
});

describe('buildSpanTree', () => {
  it('orders children by start time and measures from the first span', () => {
    const { nodes } = buildSpanTree([span('c', 'root', 30, 40), span('root', null, 10, 50), span('b', 'root', 20, 25)], new Map());
    expect(nodes.map((n) => [n.id, n.depth, n.startMs, n.durationMs])).toEqual([['root', 0, 0, 40], ['b', 1, 10, 5], ['c', 1, 20, 10]]);
  });

  it('shows a span whose parent is missing or whose links loop as a root, never loses it', () => {
    const { nodes } = buildSpanTree([span('a', 'b', 0, 1), span('b', 'a', 1, 2), span('orphan', 'gone', 2, 3), span('self', 'self', 3, 4)], new Map());
    expect(nodes.map((n) => [n.id, n.parent])).toEqual([['a', null], ['b', null], ['orphan', null], ['self', null]]);
  });

  it('walks a 50,000-deep chain without overflowing the stack, keeping the first spans and counting the rest', () => {
    const deep = Array.from({ length: 50_000 }, (_, i) => span(`s${i}`, i ? `s${i - 1}` : null, i, i + 1, {}, i));
    const { nodes, omitted } = buildSpanTree(deep, new Map());
    expect(nodes).toHaveLength(MAX_TREE_SPANS);
    expect(omitted).toBe(50_000 - MAX_TREE_SPANS);
    expect(Math.max(...nodes.map((n) => n.depth))).toBe(64);
  });

  it('a span that became a step is a model span whatever its attributes say', () => {
    const { nodes } = buildSpanTree([span('x', null, 0, 1, { 'openinference.span.kind': 'CHAIN' })], new Map([['x', 'step_1']]));
    expect(nodes[0]).toMatchObject({ kind: 'model', stepId: 'step_1' });
  });
});

describe('spanKindOf reads what each instrumentation writes', () => {
  const kind = (attrs: Record<string, unknown>, name = 'x') => spanKindOf({ name, attrs });
  it.each([
    [{ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'planner' }, 'agent'],
    [{ 'gen_ai.operation.name': 'execute_tool' }, 'tool'],
    [{ 'gen_ai.operation.name': 'chat' }, 'model'],
    [{ 'gen_ai.operation.name': 'invoke_workflow' }, 'chain'],
    [{ 'openinference.span.kind': 'RETRIEVER' }, 'retrieval'],
    [{ 'openinference.span.kind': 'TOOL' }, 'tool'],
    [{ 'traceloop.span.kind': 'workflow' }, 'chain'],
    [{ 'ai.operationId': 'ai.toolCall' }, 'tool'],
    [{ 'ai.operationId': 'ai.embedMany' }, 'retrieval'],
    [{ 'langfuse.observation.type': 'AGENT' }, 'agent'],
    [{ 'http.method': 'GET' }, 'span'],
  ] as const)('%o → %s', (attrs, expected) => expect(kind(attrs)).toBe(expected));
});

describe('traceNameOf', () => {
  it('names a trace after its earliest root span, else its service', () => {
    expect(traceNameOf([span('child', 'late', 0, 1), span('late', null, 5, 9), span('early', null, 1, 2)], 'svc')).toBe('early');
    expect(traceNameOf([], 'svc')).toBe('svc');
  });
});
