import type { ChainProblem } from '../chain/parse.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { createFidelityReport, type FidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult } from './format.ts';
import { bind, identifierFrom, orderByEdges, placeAtCanvasDensity } from './flow-common.ts';
import { carryModelSettings, numberOf, reportPrompt } from './model-settings.ts';
import { readProject, type RivetGraph, type RivetNode } from './rivet-graph.ts';

/**
 * A Rivet project: the graph Rivet runs (its main graph, else the first) becomes a chain. Graph
 * inputs become chain inputs and graph outputs outputs; each chat node a model step whose system
 * message and prompt are the text, prompt and assemble-prompt nodes wired into it, folded in as
 * the author's words (`{{var}}` becomes `{var}`, bound to what the var's port reads); a text node
 * wired to an output a template step. Nodes that run code or reach out (code, external call,
 * HTTP, subgraph calls) are refused by name, and so is every node without a counterpart here.
 */

const REFUSED: Record<string, string> = {
  code: 'runs JavaScript, which an import never runs',
  externalCall: 'calls a function the host application provides, which is not in the file',
  httpCall: 'sends an HTTP request',
  subGraph: 'runs another graph of the project; a subgraph is not inlined here',
  readFile: 'reads a file from disk',
  toolCall: 'calls a tool',
};
const CARRIED = new Set(['graphInput', 'graphOutput', 'chat', 'text', 'prompt', 'assemblePrompt', 'passthrough', 'comment']);
const VARIABLE = /\{\{\s*([^{}]+?)\s*\}\}/g;

type Role = 'user' | 'system' | 'assistant';
/** What a port carries: a value (an input, a step's output), text the author wrote (with what it reads), or messages. */
type Piece = { ref: string; name: string } | { text: string; bindings: Record<string, string>; role: Role; from: RivetNode } | { messages: Piece[] };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function rivetToChain(project: unknown, ctx: ChainFormatContext): ToChainResult {
  const read = readProject(project);
  if (!read || read.graphs.length === 0) return { ok: false, problems: [{ path: '$.data.graphs', message: 'this Rivet project has no graphs' }] };
  const graph = read.graphs.find((g) => g.id === read.mainGraphId) ?? (read.graphs[0] as RivetGraph);
  const report = createFidelityReport('Rivet');
  const others = read.graphs.filter((g) => g !== graph);
  if (others.length > 0) {
    report.changed.push({ where: 'the project', what: `the graph "${graph.name}"`, why: read.mainGraphId === graph.id ? 'it is the project\'s main graph, the one Rivet runs' : 'the project names no main graph, so its first graph is imported' });
    report.dropped.push({ where: 'the project', what: `the graphs ${others.map((g) => `"${g.name}"`).join(', ')}`, why: 'a chain file holds one graph (set another as the main graph in Rivet to import it)' });
  }
  const problems: ChainProblem[] = [];
  const where = (n: RivetNode) => `$.data.graphs.${graph.id}.nodes['${n.key}']`;
  // Rivet names every chat node "Chat": a title two nodes share is told apart by its place in the file.
  const shared = (n: RivetNode) => graph.nodes.filter((o) => o.title === n.title);
  const titleOf = (n: RivetNode) => (shared(n).length > 1 ? `${n.title} ${shared(n).indexOf(n) + 1}` : n.title);
  const named = (n: RivetNode) => `"${titleOf(n)}" (${n.type})`;
  /** Nodes already refused: what reads them is not refused again (the cause is named once). */
  const refused = new Set<string>();
  const refuse = (n: RivetNode, message: string) => {
    refused.add(n.id);
    problems.push({ path: where(n), message: `${named(n)} ${message}` });
  };
  for (const n of graph.nodes) {
    const called = read.graphs.find((g) => g.id === n.data.graphId);
    if (n.type === 'subGraph' && called) refuse(n, `runs the graph "${called.name}"; a subgraph is not inlined here (make "${called.name}" the project's main graph in Rivet to import it on its own)`);
    // Types come from the file: only the table's own entries count ("constructor" is not one).
    else if (Object.hasOwn(REFUSED, n.type)) refuse(n, REFUSED[n.type] as string);
    else if (!CARRIED.has(n.type)) refuse(n, 'has no counterpart here: no step does what it does');
  }
  if (problems.length > 0) return { ok: false, problems };

  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const into = (n: RivetNode, port: string) => graph.edges.find((e) => e.to === n.id && e.toPort === port);
  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const steps: Record<string, unknown>[] = [];
  const inputOf = new Map<string, string>();
  const stepOf = new Map<string, string>();

  /** What `port` of `n` carries, or null (and a problem) when it cannot be carried. */
  const valueOf = (n: RivetNode, port: string, depth = 0): Piece | null => {
    if (depth > 50) return refuse(n, 'is in a chain of text nodes deeper than 50'), null;
    switch (n.type) {
      case 'graphInput':
        return { ref: `inputs.${inputOf.get(n.id) as string}`, name: inputOf.get(n.id) as string };
      case 'chat':
        if (port !== 'response') return refuse(n, `is read through its "${port}" output; only its response carries over`), null;
        if (stepOf.has(n.id)) return { ref: `steps.${stepOf.get(n.id) as string}`, name: stepOf.get(n.id) as string };
        if (!refused.has(n.id)) refuse(n, 'is read before it runs');
        return null;
      case 'passthrough': {
        const edge = into(n, port.replace(/^output/, 'input'));
        const source = edge && byId.get(edge.from);
        return source ? valueOf(source, edge.fromPort, depth + 1) : (refuse(n, `passes on its ${port}, which nothing is connected to`), null);
      }
      case 'text':
      case 'prompt':
        return authored(n, depth);
      case 'assemblePrompt': {
        const ports = [...new Set(graph.edges.filter((e) => e.to === n.id && /^message\d+$/.test(e.toPort)).map((e) => e.toPort))].sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
        const parts = ports.map((p) => {
          const edge = into(n, p);
          const source = edge && byId.get(edge.from);
          return source && edge ? valueOf(source, edge.fromPort, depth + 1) : null;
        });
        return parts.every((p): p is Piece => p !== null) ? { messages: parts } : null;
      }
      default:
        return refuse(n, 'is read here, and has no counterpart'), null;
    }
  };

  /** A text or prompt node: the author's words, each `{{var}}` bound to what its port reads. */
  const authored = (n: RivetNode, depth: number): Piece | null => {
    const source = n.type === 'text' ? str(n.data.text) : str(n.data.promptText);
    const role: Role = n.type === 'prompt' && ['system', 'assistant'].includes(str(n.data.type)) ? (str(n.data.type) as Role) : 'user';
    if (n.type === 'prompt' && n.data.useTypeInput === true) return refuse(n, 'takes its role from a port, known only at run time'), null;
    const literal = [...source.replace(VARIABLE, '').matchAll(PLACEHOLDER_PATTERN)][0];
    if (literal) return refuse(n, `has the text ${literal[0]}, which a Seamscope template would fill in`), null;
    const bindings: Record<string, string> = {};
    let failed = false;
    const text = source.replace(VARIABLE, (whole, name: string) => {
      const edge = into(n, name);
      const from = edge && byId.get(edge.from);
      const piece = from && edge ? valueOf(from, edge.fromPort, depth + 1) : null;
      if (!from) refuse(n, `reads ${whole}, which nothing is connected to (Rivet would send it empty)`);
      if (!piece || 'messages' in piece) {
        if (piece) refuse(n, `reads ${whole} from messages; a variable here is one value`);
        failed = true;
        return whole;
      }
      if ('ref' in piece) return `{${bind(bindings, identifierFrom(name, 'value', new Set()), piece.ref)}}`;
      // Text from another text node is inlined, with what it reads.
      for (const [k, ref] of Object.entries(piece.bindings)) if (bind(bindings, k, ref) !== k) failed = true;
      if (failed) refuse(n, `reads ${whole}, whose own variables clash with this node's`);
      return piece.text;
    });
    return failed ? null : { text, bindings, role, from: n };
  };

  /** What is wired into `port` of `n`: undefined when nothing is, null when it cannot be carried. */
  const portValue = (n: RivetNode, port: string): Piece | null | undefined => {
    const edge = into(n, port);
    const from = edge && byId.get(edge.from);
    return from && edge ? valueOf(from, edge.fromPort) : undefined;
  };

  const order = orderByEdges(graph.nodes, (id) => graph.edges.filter((e) => e.to === id).map((e) => byId.get(e.from) as RivetNode), (n) => refuse(n, 'is in a loop of connections'));
  for (const n of graph.nodes.filter((g) => g.type === 'graphInput')) {
    const name = identifierFrom(str(n.data.id) || n.title, 'input', taken);
    inputOf.set(n.id, name);
    inputs.push(graphInput(n, name, report, portValue));
  }
  for (const n of order) {
    if (n.type === 'chat') {
      const config = chatConfig(n, named(n), portValue, refuse, report);
      if (!config) continue;
      const id = identifierFrom(titleOf(n), 'step', taken);
      stepOf.set(n.id, id);
      steps.push({ id, kind: 'model', name: titleOf(n), position: n.position, config });
    } else if (n.type === 'graphOutput') {
      const edge = into(n, 'value');
      const from = edge && byId.get(edge.from);
      const piece = from && edge ? valueOf(from, edge.fromPort) : (refuse(n, 'has nothing connected to its value'), null);
      if (!piece) continue;
      if ('messages' in piece) {
        refuse(n, 'returns messages; an output returns one value');
        continue;
      }
      let ref = 'ref' in piece ? piece.ref : '';
      if ('text' in piece) {
        const id = identifierFrom(piece.from.title, 'step', taken);
        steps.push({ id, kind: 'template', name: piece.from.title, position: piece.from.position, config: { bindings: piece.bindings, text: piece.text } });
        report.changed.push({ where: named(piece.from), what: 'the text', why: 'a template step: each {{var}} became {var}' });
        ref = `steps.${id}`;
      }
      steps.push({ id: identifierFrom(str(n.data.id) || n.title, 'output', taken), kind: 'output', name: str(n.data.id) || n.title, position: n.position, config: { bindings: { value: ref } } });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  if (!graph.nodes.some((n) => n.type === 'graphOutput')) return { ok: false, problems: [{ path: `$.data.graphs.${graph.id}`, message: `the graph "${graph.name}" has no Graph Output, so a run would return nothing` }] };
  placeAtCanvasDensity(steps, 0.6);
  const base = (ctx.fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.rivet-project$/i, '');
  const name = graph.name.replace(/^\*\s*/, '') || read.title || base || 'Rivet graph';
  return {
    ok: true, report,
    chain: {
      format: 'seamscope.chain', version: 1, id: `rivet-${identifierFrom(`${base} ${name}`, 'graph', new Set()).replace(/_/g, '-')}`, name: name.slice(0, 200),
      description: `Imported from Rivet${base ? ` (${base}.rivet-project, graph "${graph.name}")` : ''}.`,
      inputs, steps, meta: { importedFrom: { tool: 'Rivet' } },
    },
  };
}

/** Text the author wrote, with nothing read at run time: a default wired into a graph input. */
function constantText(piece: Piece | null | undefined): string | null {
  if (!piece || 'ref' in piece) return null;
  if ('text' in piece) return Object.keys(piece.bindings).length === 0 ? piece.text : null;
  const parts = piece.messages.map(constantText);
  return parts.every((p): p is string => p !== null) ? parts.join('\n\n') : null;
}

/** A graph input as a chain input: its data type as a schema, its default (a literal, or constant text wired in) as the example. */
function graphInput(n: RivetNode, name: string, report: FidelityReport, portValue: (n: RivetNode, port: string) => Piece | null | undefined): Record<string, unknown> {
  const type = str(n.data.dataType) || 'string';
  const where = `"${n.title}" (graphInput ${name})`;
  const schemas: Record<string, unknown> = { string: { type: 'string' }, number: { type: 'number' }, boolean: { type: 'boolean' }, object: { type: 'object' } };
  let schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (!schema) {
    // A chat-message list (the conversation so far) arrives here as text, as a prompt reads it.
    schema = type.endsWith('[]') && type !== 'chat-message[]' ? { type: 'array' } : { type: 'string' };
    report.changed.push({ where, what: `data type ${type}`, why: type === 'chat-message[]' ? 'one text input (the conversation so far, as text): a model step sends one system message and one user message' : `a ${JSON.stringify(schema)} input` });
  }
  const input: Record<string, unknown> = { name, schema, trust: 'untrusted', required: true };
  const wired = n.data.useDefaultValueInput === true ? portValue(n, 'default') : undefined;
  const fallback = wired === undefined ? (typeof n.data.defaultValue === 'string' || typeof n.data.defaultValue === 'number' ? n.data.defaultValue : '') : constantText(wired);
  if (fallback !== null && fallback !== '') {
    input.example = fallback;
    report.changed.push({ where, what: `its default value${wired ? ' (wired in)' : ''}`, why: 'the input\'s example, filled in for a run from the Library; a run given no value fails, naming the input, where Rivet would use the default' });
  } else if (wired !== undefined) report.dropped.push({ where, what: 'its default value', why: 'it is wired from nodes that read values at run time' });
  return input;
}

/** A chat node as a model step's config, or null (with a problem). */
function chatConfig(n: RivetNode, where: string, portValue: (n: RivetNode, port: string) => Piece | null | undefined, refuse: (n: RivetNode, m: string) => void, report: FidelityReport): Record<string, unknown> | null {
  const d = n.data;
  const fromPort = Object.keys(d).find((k) => /^use\w+Input$/.test(k) && d[k] === true);
  if (fromPort) return refuse(n, `takes its ${fromPort.slice(3, -5).replace(/^\w/, (c) => c.toLowerCase())} from a port, known only at run time`), null;
  if (d.enableFunctionUse === true) return refuse(n, 'calls functions (tools); a chain here runs no tools'), null;
  const promptPiece = portValue(n, 'prompt');
  const systemPiece = portValue(n, 'systemPrompt');
  if (promptPiece === null || systemPiece === null) return null;
  if (promptPiece === undefined) return refuse(n, 'has nothing connected to its prompt'), null;
  const bindings: Record<string, string> = {};
  /** A piece as template text, its reads bound here; null when names clash. */
  const asText = (piece: Piece): string | null => {
    if ('ref' in piece) return `{${bind(bindings, piece.name, piece.ref)}}`;
    if ('messages' in piece) return null;
    for (const [k, ref] of Object.entries(piece.bindings)) if (bind(bindings, k, ref) !== k) return null;
    return piece.text;
  };
  const system: string[] = [];
  const user: string[] = [];
  if (systemPiece) system.push(asText(systemPiece) ?? '\0');
  const messages = 'messages' in promptPiece ? promptPiece.messages.flatMap((m) => ('messages' in m ? m.messages : [m])) : [promptPiece];
  for (const m of messages) {
    const role = 'role' in m ? m.role : 'user';
    if (role === 'assistant') return refuse(n, `is sent an assistant message (from ${'from' in m ? `"${m.from.title}"` : 'its prompt'}); a model step sends one system message and one user message`), null;
    if (role === 'system' && user.length > 0) return refuse(n, 'is sent a system message after a user message; a model step sends the system message first'), null;
    (role === 'system' ? system : user).push(asText(m) ?? '\0');
  }
  if ([...system, ...user].includes('\0')) return refuse(n, 'reads the same name from two different values, or messages nested in messages'), null;
  const config: Record<string, unknown> = { bindings, system: system.join('\n\n'), prompt: user.join('\n\n'), outputSchema: null };
  if (messages.length > 1) report.changed.push({ where, what: `the ${messages.length} messages assembled`, why: `${system.length ? 'the system messages became its system message, ' : ''}the user messages one user message, joined by a blank line (a model step sends one of each)` });
  if (systemPiece && 'text' in systemPiece) reportPrompt(where, `the system message from "${systemPiece.from.title}"`, systemPiece.text, systemPiece.text, report, '');
  for (const m of messages) if ('text' in m && m.text === (m.from.type === 'text' ? str(m.from.data.text) : str(m.from.data.promptText))) reportPrompt(where, `the text of "${m.from.title}"`, m.text, m.text, report, '');
  if (messages.some((m) => 'text' in m && Object.keys(m.bindings).length > 0) || (systemPiece && 'text' in systemPiece && Object.keys(systemPiece.bindings).length > 0)) report.changed.push({ where, what: 'its prompt\'s {{variables}}', why: 'each became a {binding} to the value wired into its port' });
  const unheld: Record<string, unknown> = {};
  if (d.useTopP === true) unheld.top_p = d.top_p;
  if (d.useStop === true && str(d.stop)) unheld.stop = d.stop;
  for (const key of ['frequencyPenalty', 'presencePenalty', 'seed']) if (numberOf(d[key])) unheld[key] = d[key];
  if (d.cache === true) unheld.cache = true;
  const model = str(d.overrideModel) || d.model;
  carryModelSettings(where, { model, temperature: d.temperature, maxTokens: d.maxTokens, unheld }, config, report);
  return config;
}
