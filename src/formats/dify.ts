import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { isRecord } from '../files/json-value.ts';
import { ifElseRoutes } from './dify-branch.ts';
import { branchName, checkBranchesGate, resolveRoutes, type PendingRouter } from './dify-routes.ts';
import { branchOnlyNodes, isAggregator, MAX_COPIES, readEdges, readNodes, ROOT_SCOPE, scopesOf, text, variantIn, type DifyNode, type Scope, type Variant } from './dify-graph.ts';
import { classifierConfig, extractorConfig, llmConfig, type Translate } from './dify-model.ts';
import { createFidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult } from './format.ts';
import { edgesByNode, identifierFrom, orderByEdges, placeAtCanvasDensity } from './flow-common.ts';
import { jinjaToTemplate } from './promptflow.ts';

/**
 * Dify DSL (an app exported as YAML), its workflow graph read node by node: the start node's
 * variables become chain inputs; llm nodes model steps (messages and model settings carried and
 * reported); template-transform nodes template steps (Jinja parsed, never run; only `{{ var }}`
 * translates); if-else nodes routers (conditions of equality or emptiness on one value, dify-branch.ts); a
 * question classifier a model step answering one of its classes plus a router on that answer; a
 * parameter extractor a model step with its parameters as the schema; an iteration whose body
 * is one llm node a map; a variable aggregator copies of what follows it, one per branch (no
 * step joins branches: dify-graph.ts); end and answer nodes outputs. Nodes that run code or
 * reach out (code, tool, http-request, knowledge-retrieval, agent) are refused by name, and so
 * is anything else without a counterpart: each is named, and nothing is stored.
 */

/** `{{#1721117927142.source_text#}}`: a node's variable, as Dify writes one in a prompt. */
const DIFY_REF = /\{\{#([\w-]+)\.([\w]+)#\}\}/g;
/** The map's current item inside an iteration's body: `{item}`, not a binding. */
const ITEM = '@item';

const REACHES_OUT: Record<string, string> = {
  code: 'runs code, which an import never runs',
  tool: 'calls a tool',
  'http-request': 'sends an HTTP request',
  'knowledge-retrieval': 'searches a Dify knowledge base, which is not in the file',
  agent: 'is an agent that calls tools',
};


export function difyToChain(app: unknown, ctx: ChainFormatContext): ToChainResult {
  const graph = isRecord(app) && isRecord(app.workflow) && isRecord(app.workflow.graph) ? app.workflow.graph : null;
  if (!graph || !Array.isArray(graph.nodes)) return { ok: false, problems: [{ path: '$.workflow.graph', message: 'this Dify app has no workflow graph (a chat or completion app without a workflow is not imported)' }] };
  const report = createFidelityReport('Dify');
  const problems: ChainProblem[] = [];
  const all = readNodes(graph);
  const byId = new Map(all.map((n) => [n.id, n]));
  const edges = readEdges(graph, (id) => byId.has(id));
  const nodes = all.filter((n) => n.parent === null);
  const childrenOf = new Map<string, DifyNode[]>();
  for (const n of all) if (n.parent !== null) (childrenOf.get(n.parent) ?? childrenOf.set(n.parent, []).get(n.parent) as DifyNode[]).push(n);
  const byNode = edgesByNode(edges.filter((e) => byId.get(e.source)?.parent === null && byId.get(e.target)?.parent === null));
  const where = (n: DifyNode) => `$.workflow.graph.nodes[${n.index}]`;
  const order = orderByEdges(nodes, (id) => byNode.to(id).map((e) => byId.get(e.source) as DifyNode), (n) => problems.push({ path: where(n), message: `"${n.title}" (${n.type}) is in a loop of edges` }));
  const branchOnly = branchOnlyNodes(order, byNode.to, byId);

  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const steps: Record<string, unknown>[] = [];
  /** `node.variable` → the value it is here, one per copy of that node. */
  const refOf = new Map<string, Variant[]>();
  /** Node id → the step a branch to it goes to, one per copy. */
  const entryOf = new Map<string, Variant[]>();
  /** Node id → every step made from it. */
  const stepsOf = new Map<string, string[]>();
  const pending: PendingRouter[] = [];
  /** Nodes already refused: what reads them is not refused again (the cause is named once). */
  const refused = new Set<string>();
  const refuse = (n: DifyNode, message: string) => {
    refused.add(n.id);
    problems.push({ path: where(n), message });
  };
  /** A reference that no imported node makes: refused, unless its node was refused already. */
  const unresolved = (n: DifyNode, node: string, message: string) => {
    if (refused.has(node)) refused.add(n.id);
    else refuse(n, message);
  };
  const named = (n: DifyNode) => `"${n.title}" (${n.type})`;
  const add = (map: Map<string, Variant[]>, key: string, scope: Scope, ref: string) => {
    const list = map.get(key) ?? map.set(key, []).get(key) as Variant[];
    list.push({ key: scope.key, ref, after: scope.after });
  };
  const place = (n: DifyNode, step: Record<string, unknown>, scope: Scope, copy: number) => {
    steps.push({ ...step, position: { x: n.position.x + 60 * copy, y: n.position.y + 160 * copy } });
    (stepsOf.get(n.id) ?? stepsOf.set(n.id, []).get(n.id) as string[]).push(step.id as string);
    if (!entryOf.get(n.id)?.some((v) => JSON.stringify(v.key) === JSON.stringify(scope.key))) add(entryOf, n.id, scope, step.id as string);
  };
  /** `[node id, variable]` as a person reads it: the node's title and the variable. */
  const selectorName = (selector: readonly string[]) => [byId.get(selector[0] ?? '')?.title ?? selector[0], ...selector.slice(1)].join('.');
  /** A node's name in one copy: the plain title, or the title and the branch it follows. */
  const nameIn = (title: string, scope: Scope) => (scope.after.length ? `${title} (after ${scope.after.join(', ')})` : title);

  /** Every `node.variable` a Dify prompt reads, with its llm context spelled out. */
  const withContext = (n: DifyNode, source: string) => {
    const context = isRecord(n.data.context) ? n.data.context : {};
    const selector = Array.isArray(context.variable_selector) ? context.variable_selector.map(text) : [];
    return context.enabled === true && selector.length === 2 ? source.replaceAll('{{#context#}}', `{{#${selector[0]}.${selector[1]}#}}`) : source;
  };
  const refsIn = (n: DifyNode, source: string) => [...withContext(n, source).matchAll(DIFY_REF)].map((m) => `${m[1]}.${m[2]}`);

  /** A Dify prompt as a step template in `scope`, binding what it reads; null (and a problem) when it cannot be. */
  const translateIn = (n: DifyNode, scope: Scope, reserved: readonly string[] = []): Translate => (raw, bindings) => {
    const source = withContext(n, raw);
    if (source !== raw) report.changed.push({ where: named(n), what: 'its context {{#context#}}', why: 'the value the node\'s context names, read as a binding' });
    let missing: { whole: string; node: string } | null = null;
    const out = source.replace(DIFY_REF, (whole, node: string, variable: string) => {
      const ref = variantIn(refOf.get(`${node}.${variable}`), scope)?.ref;
      if (!ref) {
        missing ??= { whole, node };
        return whole;
      }
      if (ref === ITEM) return '{item}';
      const name = identifierFrom(variable, 'value', new Set([...reserved, ...Object.keys(bindings).filter((k) => bindings[k] !== ref)]));
      setOwn(bindings, name, ref);
      return `{${name}}`;
    });
    if (missing) {
      const { whole, node } = missing;
      unresolved(n, node, `${named(n)} reads ${whole}, which is not a start variable or the output of a node this import carries over`);
      return null;
    }
    const left = /\{\{#[^}]*#\}\}/.exec(out);
    if (left) {
      refuse(n, `${named(n)} reads ${left[0]}, which ${left[0] === '{{#context#}}' ? 'is its context, and the node has none set' : 'is not a start variable or the output of a node this import carries over'}`);
      return null;
    }
    // Text that reads as a Seamscope placeholder and is not one of the node's references.
    const literal = [...source.replace(DIFY_REF, '').matchAll(PLACEHOLDER_PATTERN)];
    const fills = (name: string) => Object.hasOwn(bindings, name) || (name === 'item' && reserved.includes('item'));
    const unbound = literal.find((m) => !fills((m[1] ?? '').split('.')[0] as string));
    if (unbound) {
      refuse(n, `${named(n)}: its prompt has the text ${unbound[0]}, which a Seamscope template would fill in`);
      return null;
    }
    for (const m of literal) report.changed.push({ where: named(n), what: `the text ${m[0]} in a prompt`, why: `it is literal text in Dify; here it names ${m[1] === 'item' && !Object.hasOwn(bindings, 'item') ? 'the map\'s item' : `the binding ${m[1]}`} and is filled with its value (a template has no literal braces around a name)` });
    return out;
  };

  /**
   * What a node does when it fails (Dify 0.14 and later): retries and a default value are said,
   * a fail branch is refused (its nodes would run here whether or not the node failed).
   */
  const carryFailureSettings = (n: DifyNode, label: string): boolean => {
    const strategy = text(n.data.error_strategy);
    if (strategy === 'fail-branch') {
      refuse(n, `${label} has a fail branch, which this import does not carry over (an on-fail fallback here replaces the step, it does not branch beside it)`);
      return false;
    }
    if (strategy === 'default-value') report.dropped.push({ where: label, what: 'its default value on failure', why: 'a failed step here ends the run or follows its on-fail policy' });
    const retry = isRecord(n.data.retry_config) ? n.data.retry_config : {};
    if (retry.retry_enabled === true) report.changed.push({ where: label, what: `${String(retry.max_retries ?? '?')} retries`, why: 'the endpoint profile retries failed requests (429, 5xx, timeouts); the step\'s own retries resend a malformed answer with feedback' });
    return true;
  };
  /** The copies a node reading these `node.variable`s is built in; null (and a problem) past the limit. */
  const scopesFor = (n: DifyNode, keys: readonly string[]): Scope[] | null => {
    const lists = [...new Set(keys)].map((k) => refOf.get(k)).filter((l): l is Variant[] => l !== undefined);
    const scopes = scopesOf(lists);
    if (scopes.length === 0) refuse(n, `${named(n)} reads values from branches that never run together`);
    else if (scopes.length > MAX_COPIES) refuse(n, `${named(n)} would be built more than ${MAX_COPIES} times, once per combination of the branches before it`);
    else return scopes;
    return null;
  };
  const trustForRouting = (ref: string, n: DifyNode) => {
    const input = inputs.find((i) => `inputs.${String(i.name)}` === ref);
    if (!input || input.trust === 'trusted') return input;
    input.trust = 'trusted';
    report.changed.push({ where: `input ${String(input.name)}`, what: 'trusted', why: `${named(n)} branches on it as the person gives it; a router reads an untrusted input only through a model step's field, so it is marked trusted: its value chooses the branch, and a prompt reads it unframed` });
    return input;
  };

  // A chatflow's user message is sys.query: the chain's input, as the start node's variables are.
  if (all.some((n) => /sys\.query#|"sys","query"/.test(JSON.stringify(n.data)))) {
    const name = identifierFrom('query', 'query', taken);
    inputs.push({ name, description: 'The chat message (Dify\'s sys.query)', schema: { type: 'string' }, trust: 'untrusted', required: true });
    add(refOf, 'sys.query', ROOT_SCOPE, `inputs.${name}`);
    report.changed.push({ where: 'sys.query', what: 'the chat message', why: `the chain input ${name}: a chain run holds no conversation, so the message is given as an input` });
  }
  for (const n of order) {
    const label = named(n);
    if (REACHES_OUT[n.type]) {
      refuse(n, `${label} ${REACHES_OUT[n.type]}`);
      continue;
    }
    if (!carryFailureSettings(n, label)) continue;
    if (n.type === 'start') {
      for (const v of Array.isArray(n.data.variables) ? n.data.variables.filter(isRecord) : []) {
        const name = identifierFrom(text(v.variable), 'input', taken);
        const options = Array.isArray(v.options) ? v.options.map(text).filter(Boolean) : [];
        const schema = v.type === 'number' ? { type: 'number' } : v.type === 'select' && options.length ? { type: 'string', enum: options } : { type: 'string' };
        inputs.push({ name, ...(text(v.label) && text(v.label) !== text(v.variable) ? { description: text(v.label).slice(0, 500) } : {}), schema, trust: 'untrusted', required: v.required !== false });
        add(refOf, `${n.id}.${text(v.variable)}`, ROOT_SCOPE, `inputs.${name}`);
      }
      continue;
    }
    if (n.type === 'llm') {
      const keys = [...(Array.isArray(n.data.prompt_template) ? n.data.prompt_template.filter(isRecord) : [n.data.prompt_template]).flatMap((m) => refsIn(n, isRecord(m) ? text(m.text) : ''))];
      (scopesFor(n, keys) ?? []).forEach((scope, copy) => {
        const id = identifierFrom(nameIn(n.title, scope), 'step', taken);
        const config = llmConfig(n, label, translateIn(n, scope), report);
        if (config && 'problem' in config) return refuse(n, `${label} ${String(config.problem)}`);
        if (!config) return;
        place(n, { id, kind: 'model', name: nameIn(n.title, scope), config }, scope, copy);
        add(refOf, `${n.id}.text`, scope, `steps.${id}`);
        if (isRecord(config.outputSchema)) add(refOf, `${n.id}.structured_output`, scope, `steps.${id}`);
      });
      continue;
    }
    if (n.type === 'template-transform') {
      const variables = Array.isArray(n.data.variables) ? n.data.variables.filter(isRecord) : [];
      const selectorOf = (v: Record<string, unknown>) => (Array.isArray(v.value_selector) ? v.value_selector.map(text) : []);
      const checked = jinjaToTemplate(text(n.data.template));
      if ('problem' in checked) {
        refuse(n, `${label}: its template cannot be a Seamscope template: ${checked.problem}`);
        continue;
      }
      (scopesFor(n, variables.map((v) => selectorOf(v).join('.'))) ?? []).forEach((scope, copy) => {
        const bindings: Record<string, string> = {};
        for (const v of variables) {
          const selector = selectorOf(v);
          const ref = variantIn(refOf.get(selector.join('.')), scope)?.ref;
          if (ref && ref !== ITEM) setOwn(bindings, text(v.variable), ref);
          else return unresolved(n, selector[0] ?? '', `${label} reads ${selector.join('.')}, which is not a start variable or the output of a node this import carries over`);
        }
        const id = identifierFrom(nameIn(n.title, scope), 'step', taken);
        place(n, { id, kind: 'template', name: nameIn(n.title, scope), config: { bindings, text: checked.template } }, scope, copy);
        if (copy === 0) report.changed.push({ where: label, what: 'the Jinja template', why: 'each {{ var }} became {var} of a template step' });
        add(refOf, `${n.id}.output`, scope, `steps.${id}`);
      });
      continue;
    }
    if (n.type === 'if-else') {
      const plan = ifElseRoutes(n.data, selectorName);
      if ('problem' in plan) {
        refuse(n, `${label}: ${plan.problem}`);
        continue;
      }
      const key = plan.selector.join('.');
      (scopesFor(n, [key]) ?? []).forEach((scope, copy) => {
        const ref = variantIn(refOf.get(key), scope)?.ref;
        if (!ref || ref === ITEM) return unresolved(n, plan.selector[0] ?? '', `${label} tests ${key}, which is not a start variable or the output of a node this import carries over`);
        // A router whose routes only ask whether the value is empty reads an untrusted input as it is: its text steers nothing.
        const onlyEmpty = plan.routes.every((r) => r.when === 'empty');
        const input = onlyEmpty ? inputs.find((i) => `inputs.${String(i.name)}` === ref) : trustForRouting(ref, n);
        const id = identifierFrom(nameIn(n.title, scope), 'route', taken);
        // A field of a step's output is read as the router's label field, so a field left out is no label (otherwise), not a missing input.
        const inStep = /^(steps\.[^.]+)\.(.+)$/.exec(ref);
        const config: Record<string, unknown> = { bindings: { value: inStep ? inStep[1] : ref }, field: inStep ? inStep[2] : '', routes: [], defaultTo: null, onMissingLabel: 'otherwise' };
        place(n, { id, kind: 'router', name: nameIn(n.title, scope), config }, scope, copy);
        pending.push({ config, node: n, scope, labels: plan.routes, otherwise: plan.otherwise });
        if (copy > 0) return;
        const empty = plan.routes.find((r) => r.when === 'empty');
        report.changed.push({ where: label, what: `the condition ${plan.stated.slice(0, 200)}`, why: `a router on ${ref}: ${plan.routes.map((r) => `${r.when === 'empty' ? 'an empty or missing value' : JSON.stringify(r.equals)} takes the ${branchName(r.handle)} branch`).join(', ')}; any other value${empty ? '' : ', or none,'} the ${branchName(plan.otherwise)} branch${empty ? '' : ' (a value left out equals no label, in Dify as here)'}` });
        if (empty) report.changed.push({ where: label, what: 'what counts as empty', why: 'a value not there, null, "", [] or {}, as in Dify; a number 0 or false is empty in Dify (Python\'s `not value`) but a value here' });
        else if (input?.required === false) report.changed.push({ where: label, what: `${selectorName(plan.selector)} left out`, why: `Dify takes the ${branchName(plan.otherwise)} branch; here the router has no value to read and the run stops there, naming it` });
      });
      continue;
    }
    if (n.type === 'question-classifier' || n.type === 'parameter-extractor') {
      const selector = Array.isArray(n.data.query_variable_selector) ? n.data.query_variable_selector.map(text) : Array.isArray(n.data.query) ? n.data.query.map(text) : [];
      const key = selector.join('.');
      const instruction = text(n.data.instruction) || text(n.data.instructions);
      (scopesFor(n, [key, ...refsIn(n, instruction)]) ?? []).forEach((scope, copy) => {
        const ref = variantIn(refOf.get(key), scope)?.ref;
        if (!ref || ref === ITEM) return unresolved(n, selector[0] ?? '', `${label} reads ${key || 'no query'}, which is not a start variable or the output of a node this import carries over`);
        const id = identifierFrom(nameIn(n.title, scope), 'step', taken);
        const translate = translateIn(n, scope, ['query']);
        if (n.type === 'parameter-extractor') {
          const config = extractorConfig(n, label, ref, translate, report);
          if (config && 'problem' in config) return refuse(n, `${label} ${String(config.problem)}`);
          if (!config) return;
          place(n, { id, kind: 'model', name: nameIn(n.title, scope), config }, scope, copy);
          const properties = isRecord(config.outputSchema) && isRecord(config.outputSchema.properties) ? config.outputSchema.properties : {};
          for (const name of Object.keys(properties)) add(refOf, `${n.id}.${name}`, scope, `steps.${id}.${name}`);
          return;
        }
        const built = classifierConfig(n, label, ref, translate, report);
        if (built && 'problem' in built) return refuse(n, `${label} ${built.problem}`);
        if (!built) return;
        place(n, { id, kind: 'model', name: nameIn(n.title, scope), config: built.config }, scope, copy);
        add(refOf, `${n.id}.class_name`, scope, `steps.${id}.category`);
        const routeId = identifierFrom(nameIn(`${n.title} route`, scope), 'route', taken);
        const config: Record<string, unknown> = { bindings: { value: `steps.${id}` }, field: 'category', routes: [], defaultTo: null };
        steps.push({ id: routeId, kind: 'router', name: `${nameIn(n.title, scope)}: route`, position: { x: n.position.x + 200, y: n.position.y + 160 * copy }, config });
        stepsOf.get(n.id)?.push(routeId);
        pending.push({ config, node: n, scope, labels: built.classes.map((c) => ({ equals: c.name, label: c.name, handle: c.handle })), otherwise: null });
      });
      continue;
    }
    if (isAggregator(n)) {
      const settings = isRecord(n.data.advanced_settings) ? n.data.advanced_settings : {};
      if (settings.group_enabled === true) {
        refuse(n, `${label} has groups, which this import does not carry over yet (one aggregator per group imports)`);
        continue;
      }
      const selectors = (Array.isArray(n.data.variables) ? n.data.variables : []).map((s) => (Array.isArray(s) ? s.map(text) : []));
      const joined: Variant[] = [];
      selectors.forEach((selector, i) => {
        const from = byId.get(selector[0] ?? '');
        const variants = refOf.get(selector.join('.'));
        if (!variants) return unresolved(n, selector[0] ?? '', `${label} reads ${selector.join('.')}, which is not the output of a node this import carries over`);
        if (from && !branchOnly.has(from.id)) return refuse(n, `${label} reads ${named(from)}, which runs whichever branch is taken: Dify passes on the first value that is set, and no step here chooses between values that way`);
        for (const v of variants) joined.push({ key: { ...v.key, [n.id]: i }, ref: v.ref, after: [...v.after, from?.title ?? selector[0] ?? ''] });
      });
      if (refused.has(n.id)) continue;
      if (joined.length > MAX_COPIES) {
        refuse(n, `${label} joins ${joined.length} branches; what follows it would be built once per branch (at most ${MAX_COPIES})`);
        continue;
      }
      refOf.set(`${n.id}.output`, joined);
      report.changed.push({ where: label, what: `joining ${selectors.length} branches`, why: 'no step here reads "whichever branch ran": what reads the aggregator is built once per branch, each copy reading its own branch\'s value, so each branch ends in its own output and the run returns the one of the branch taken' });
      continue;
    }
    if (n.type === 'iteration') {
      const body = (childrenOf.get(n.id) ?? []).filter((m) => m.type !== 'iteration-start');
      const inner = body[0];
      const out = Array.isArray(n.data.output_selector) ? n.data.output_selector.map(text) : [];
      if (body.length !== 1 || inner?.type !== 'llm' || out.join('.') !== `${inner.id}.text`) {
        refuse(n, `${label}: its body is ${body.map(named).join(', ') || 'empty'}; a map step runs one model call per item, and a chain of maps cannot hand each item's result on with the item, so only a body of one llm node imports`);
        continue;
      }
      const itemsKey = (Array.isArray(n.data.iterator_selector) ? n.data.iterator_selector.map(text) : []).join('.');
      const templates = Array.isArray(inner.data.prompt_template) ? inner.data.prompt_template.filter(isRecord) : [];
      const keys = templates.flatMap((m) => refsIn(inner, text(m.text))).filter((k) => !k.startsWith(`${n.id}.`));
      refOf.set(`${n.id}.item`, [{ key: {}, ref: ITEM, after: [] }]);
      (scopesFor(n, [itemsKey, ...keys]) ?? []).forEach((scope, copy) => {
        const items = variantIn(refOf.get(itemsKey), scope)?.ref;
        if (!items || items === ITEM) return unresolved(n, itemsKey.split('.')[0] ?? '', `${label} iterates over ${itemsKey || 'nothing'}, which is not a start variable or the output of a node this import carries over`);
        const where = `${label}, its body ${named(inner)}`;
        const config = llmConfig(inner, where, translateIn(inner, scope, ['items', 'item']), report);
        if (config && 'problem' in config) return refuse(n, `${where} ${String(config.problem)}`);
        if (!config) return refused.add(n.id);
        const parallel = n.data.is_parallel === true;
        const width = Math.min(64, Math.max(1, Math.trunc(Number(n.data.parallel_nums) || 10)));
        const id = identifierFrom(nameIn(n.title, scope), 'step', taken);
        place(n, { id, kind: 'map', name: nameIn(n.title, scope), config: { ...config, bindings: { ...(config.bindings as Record<string, string>), items }, itemName: 'item', concurrency: parallel ? width : 1 } }, scope, copy);
        add(refOf, `${n.id}.output`, scope, `steps.${id}`);
        if (copy > 0) return;
        report.changed.push({ where: label, what: 'the iteration', why: `a map over ${items}: one call of ${named(inner)} per item, {{#${n.id}.item#}} as {item}` });
        report.kept.push({ where: label, what: parallel ? `${width} items at once` : 'one item at a time (the map\'s concurrency 1)' });
        report.changed.push({ where: label, what: 'its output', why: 'Dify\'s list of texts is the map\'s typed results here: each item\'s output with its status, failed items named, never dropped' });
        const mode = text(n.data.error_handle_mode) || 'terminated';
        if (mode !== 'continue-on-error') report.changed.push({ where: label, what: `error handling ${mode}`, why: 'a failed item is a result with status "error"; the others go on' });
        report.changed.push({ where: label, what: 'an empty list', why: 'stops the run before any call (Dify returns an empty list)' });
      });
      continue;
    }
    if (n.type === 'end') {
      for (const o of Array.isArray(n.data.outputs) ? n.data.outputs.filter(isRecord) : []) {
        const selector = Array.isArray(o.value_selector) ? o.value_selector.map(text) : [];
        const variants = refOf.get(selector.join('.'));
        if (!variants) {
          unresolved(n, selector[0] ?? '', `${label}: the output ${text(o.variable)} reads ${selector.join('.')}, which no imported node makes`);
          continue;
        }
        variants.forEach((v, copy) => {
          const scope = { key: v.key, after: v.after };
          place(n, { id: identifierFrom(nameIn(text(o.variable) || 'output', scope), 'output', taken), kind: 'output', name: nameIn(text(o.variable) || n.title, scope), config: { bindings: { value: v.ref } } }, scope, copy);
        });
      }
      continue;
    }
    if (n.type === 'answer') {
      (scopesFor(n, refsIn(n, text(n.data.answer))) ?? []).forEach((scope, copy) => {
        const bindings: Record<string, string> = {};
        const answer = translateIn(n, scope)(text(n.data.answer), bindings);
        if (answer === null) return;
        const single = /^\{(\w+)\}$/.exec(answer.trim());
        if (single) return place(n, { id: identifierFrom(nameIn(n.title, scope), 'output', taken), kind: 'output', name: nameIn(n.title, scope), config: { bindings: { value: bindings[single[1] as string] as string } } }, scope, copy);
        const id = identifierFrom(nameIn(`${n.title} text`, scope), 'step', taken);
        place(n, { id, kind: 'template', name: nameIn(n.title, scope), config: { bindings, text: answer } }, scope, copy);
        steps.push({ id: identifierFrom(nameIn(n.title, scope), 'output', taken), kind: 'output', name: nameIn(n.title, scope), position: { x: n.position.x + 300, y: n.position.y + 160 * copy }, config: { bindings: { value: `steps.${id}` } } });
      });
      continue;
    }
    refuse(n, `${label} has no counterpart here: no step does what it does`);
  }

  if (problems.length === 0) resolveRoutes(pending, { steps, taken, byNode, byId, entryOf, report, refuse, named });
  if (problems.length === 0) checkBranchesGate(steps, branchOnly, stepsOf, byId, refuse, named);
  if (problems.length > 0) return { ok: false, problems };
  placeAtCanvasDensity(steps, 0.6);
  // Copies of a node carry the same settings: each is said once.
  for (const list of [report.kept, report.changed, report.dropped]) {
    const seen = new Set<string>();
    list.splice(0, list.length, ...list.filter((e) => !seen.has(JSON.stringify(e)) && seen.add(JSON.stringify(e))));
  }
  const appInfo = isRecord(app) && isRecord(app.app) ? app.app : {};
  const base = (ctx.fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.ya?ml$/i, '');
  const name = text(appInfo.name) || base || 'Dify workflow';
  return {
    ok: true, report,
    chain: {
      format: 'seamscope.chain', version: 1, id: `dify-${identifierFrom(base || name, 'app', new Set()).replace(/_/g, '-')}`, name: name.slice(0, 200),
      description: [`Imported from Dify${base ? ` (${base}.yml)` : ''}.`, text(appInfo.description)].filter(Boolean).join('\n\n').slice(0, 8000),
      inputs, steps, meta: { importedFrom: { tool: 'Dify' } },
    },
  };
}
