/**
 * The span tree of an imported trace: what called what, when, and for how long. Other tools
 * show a trace as agent → model calls → tools; the import keeps that shape beside the run it
 * makes (one model step per call), so the replay can show the tree and open a model span's
 * boundary. Stored on the run (RunMeta.spans) as a flat list in depth-first order, each node
 * naming its parent, so a view draws it as indented rows without rebuilding the tree.
 */

/** What a span did, as the instrumentation said it (never guessed from its name alone). */
export type SpanKind = 'agent' | 'chain' | 'model' | 'tool' | 'retrieval' | 'span';

export interface SpanNode {
  id: string;
  /** The parent's id when the parent is in the trace; null for a root (or an orphan). */
  parent: string | null;
  depth: number;
  name: string;
  kind: SpanKind;
  /** Milliseconds from the trace's first span start. */
  startMs: number;
  durationMs: number;
  /** The span's error, in its own words, when it ended with an error status. */
  error?: string;
  /** The run step this model call became (the replay opens its boundary). */
  stepId?: string;
  /** The prompt template and variables the instrumentation recorded for this call, if it did. */
  promptTemplate?: PromptTemplate;
}

/**
 * A prompt template as an instrumentation records it beside the call (OpenInference
 * `llm.prompt_template.*`): the template text, the variables it was rendered with, its version.
 * A rerun edits the template and renders it again (src/trace/rerun-span.ts).
 */
export interface PromptTemplate {
  template: string;
  variables: Record<string, string>;
  version?: string;
}

/** The part of a span the tree reads (the OTLP importer's FlatSpan and Langfuse observations fit). */
export interface SpanLike {
  key: string;
  parentKey: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attrs: Record<string, unknown>;
  status: { code: number; message?: string };
  order: number;
}

/** A trace with more spans than this keeps the first ones in time order; the rest are counted. */
export const MAX_TREE_SPANS = 2_000;
/** Deeper nesting than this is shown at this depth (parent links come from a file). */
const MAX_DEPTH = 64;

const OPENINFERENCE: Record<string, SpanKind> = {
  LLM: 'model', CHAIN: 'chain', TOOL: 'tool', AGENT: 'agent', RETRIEVER: 'retrieval', RERANKER: 'retrieval', EMBEDDING: 'retrieval',
};
const GENAI_OPERATION: Record<string, SpanKind> = {
  chat: 'model', text_completion: 'model', generate_content: 'model', embeddings: 'retrieval', retrieval: 'retrieval',
  execute_tool: 'tool', invoke_agent: 'agent', create_agent: 'agent', invoke_workflow: 'chain',
};
const TRACELOOP: Record<string, SpanKind> = { workflow: 'chain', task: 'chain', agent: 'agent', tool: 'tool' };
const LANGFUSE: Record<string, SpanKind> = {
  GENERATION: 'model', AGENT: 'agent', TOOL: 'tool', CHAIN: 'chain', RETRIEVER: 'retrieval', EMBEDDING: 'retrieval',
};

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * A span's kind from the attributes its instrumentation sets: OpenTelemetry GenAI
 * (gen_ai.operation.name), OpenInference (openinference.span.kind), OpenLLMetry
 * (traceloop.span.kind), the Vercel AI SDK (ai.toolCall, ai.* wrappers) and Langfuse's
 * observation type. A span none of them describes is a plain 'span'.
 */
export function spanKindOf(span: Pick<SpanLike, 'name' | 'attrs'>): SpanKind {
  const a = span.attrs;
  const oi = str(a['openinference.span.kind'])?.toUpperCase();
  if (oi && OPENINFERENCE[oi]) return OPENINFERENCE[oi];
  const op = str(a['gen_ai.operation.name'])?.toLowerCase();
  if (op && GENAI_OPERATION[op]) return GENAI_OPERATION[op];
  const tl = str(a['traceloop.span.kind'])?.toLowerCase();
  if (tl && TRACELOOP[tl]) return TRACELOOP[tl];
  const lf = str(a['langfuse.observation.type'])?.toUpperCase();
  if (lf && LANGFUSE[lf]) return LANGFUSE[lf];
  const vercel = str(a['ai.operationId']);
  if (vercel === 'ai.toolCall') return 'tool';
  if (vercel) return /\.do(Generate|Stream)$/.test(vercel) ? 'model' : vercel.startsWith('ai.embed') ? 'retrieval' : 'chain';
  return 'span';
}

/**
 * Builds the tree. `stepOf` maps the span keys that became run steps (the model calls) to their
 * step ids; those spans are 'model' whatever else their attributes say. Children are ordered by
 * start time, then by their place in the file. Parent links that loop or point outside the trace
 * make the span a root: it is still shown, never lost.
 */
export function buildSpanTree(spans: readonly SpanLike[], stepOf: ReadonlyMap<string, string>): { nodes: SpanNode[]; omitted: number } {
  if (spans.length === 0) return { nodes: [], omitted: 0 };
  const byStart = [...spans].sort((a, b) => a.startMs - b.startMs || a.order - b.order);
  const kept = byStart.slice(0, MAX_TREE_SPANS);
  const byKey = new Map<string, SpanLike>();
  for (const s of kept) if (!byKey.has(s.key)) byKey.set(s.key, s);
  const origin = kept[0]?.startMs ?? 0;
  const children = new Map<string | null, SpanLike[]>();
  for (const s of byKey.values()) {
    const parent = s.parentKey && s.parentKey !== s.key && byKey.has(s.parentKey) && !loops(s, byKey) ? s.parentKey : null;
    const list = children.get(parent);
    if (list) list.push(s);
    else children.set(parent, [s]);
  }
  const nodes: SpanNode[] = [];
  // Iterative depth-first walk: a deep chain of spans cannot overflow the stack.
  const stack: { span: SpanLike; parent: string | null; depth: number }[] = [];
  const pushChildren = (parent: string | null, depth: number) => {
    const list = children.get(parent) ?? [];
    for (let i = list.length - 1; i >= 0; i--) stack.push({ span: list[i] as SpanLike, parent, depth });
  };
  pushChildren(null, 0);
  while (stack.length > 0) {
    const { span, parent, depth } = stack.pop() as (typeof stack)[number];
    const stepId = stepOf.get(span.key);
    const error = span.status.code === 2 ? span.status.message || str(span.attrs['error.type']) || 'the span ended with an error status' : undefined;
    nodes.push({
      id: span.key, parent, depth: Math.min(depth, MAX_DEPTH), name: span.name || '(unnamed span)',
      kind: stepId ? 'model' : spanKindOf(span),
      startMs: span.startMs - origin, durationMs: Math.max(0, span.endMs - span.startMs),
      ...(error ? { error } : {}), ...(stepId ? { stepId } : {}),
    });
    pushChildren(span.key, depth + 1);
  }
  return { nodes, omitted: spans.length - byKey.size };
}

/** True when following the parent links from `span` comes back to it. */
function loops(span: SpanLike, byKey: ReadonlyMap<string, SpanLike>): boolean {
  const seen = new Set([span.key]);
  for (let p = span.parentKey ? byKey.get(span.parentKey) : undefined, n = 0; p && n < 10_000; p = p.parentKey ? byKey.get(p.parentKey) : undefined, n++) {
    if (seen.has(p.key)) return true;
    seen.add(p.key);
  }
  return false;
}

/** The name a trace goes by: its root span's, else its service's (what the tools show first). */
export function traceNameOf(spans: readonly SpanLike[], service: string | undefined): string | undefined {
  const keys = new Set(spans.map((s) => s.key));
  const roots = spans.filter((s) => !s.parentKey || !keys.has(s.parentKey));
  // The earliest root: a file with several traces is named after the first.
  const root = roots.reduce<SpanLike | undefined>((best, s) => (!best || s.startMs < best.startMs || (s.startMs === best.startMs && s.order < best.order) ? s : best), undefined);
  return root?.name || service;
}
