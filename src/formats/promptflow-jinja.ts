import { Environment, Interpreter, parse as parseJinja, tokenize as tokenizeJinja } from '@huggingface/jinja';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';

/**
 * A Prompt flow Jinja prompt as a Seamscope template. Prompt flow renders a prompt with Jinja
 * (`trim_blocks`, trailing newline kept) and then, for a chat call, splits the text at its role
 * lines. Here the Jinja is rendered at import by @huggingface/jinja, an interpreter that never
 * evaluates code, over what is known then: the node's literal inputs. Each value known only when
 * the flow runs (a flow input, another node's output) must stand alone as `{{ name }}` or
 * `{{ name.field }}`: it becomes the placeholder `{name}` / `{name.field}`. A loop, condition or
 * filter over such a value has no counterpart in a step's template and is refused by name.
 *
 * Rendering at import is bounded before it starts: no calls (so no `range()`, macros or methods),
 * no arithmetic, loops only over a literal input and never nested, and the output's size is
 * capped by the loop's length times the template's.
 */

/** A loop over a value known only at run time, carried as that value's placeholder. */
export interface CarriedLoop {
  over: string;
  /** The loop as written (its head and length), for the report. */
  loop: string;
}

export type JinjaTemplate = { template: string; vars: string[]; rendered: boolean; loops: CarriedLoop[] } | { problem: string };

const MAX_RENDERED_CHARS = 2_000_000;
const SIMPLE_VAR = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const SIMPLE = /\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\}\}/g;
/** Private-use characters that mark where a runtime value goes while the rest is rendered. */
const MARK = /\uE000(\d+)\uE001/g;

type Token = ReturnType<typeof tokenizeJinja>[number];

function tokensOf(source: string): Token[] | { problem: string } {
  try {
    const tokens = tokenizeJinja(source, { trim_blocks: true });
    parseJinja(tokens);
    return tokens;
  } catch (error) {
    return { problem: `it is not valid Jinja (${error instanceof Error ? error.message.slice(0, 160) : 'unreadable'})` };
  }
}

/** Why rendering this template at import could run long or large, or null when it is bounded. */
function unbounded(tokens: readonly Token[], constants: Record<string, unknown>, length: number): string | null {
  for (const [i, t] of tokens.entries()) {
    if (t.type === 'OpenParen' && tokens[i - 1]?.type === 'Identifier') return `it calls ${tokens[i - 1]?.value}(), which an import does not run`;
    if (t.type === 'MultiplicativeBinaryOperator' || t.type === 'ExponentiationBinaryOperator' || t.type === 'AdditiveBinaryOperator') return `it computes with "${t.value}", which an import does not run`;
  }
  let depth = 0;
  for (const [i, t] of tokens.entries()) {
    if (t.type !== 'Identifier' || tokens[i - 1]?.type !== 'OpenStatement') continue;
    if (t.value === 'endfor') depth--;
    if (t.value !== 'for') continue;
    if (++depth > 1) return 'it nests one loop in another';
    const inAt = tokens.findIndex((x, j) => j > i && x.type === 'Identifier' && x.value === 'in');
    const over = tokens[inAt + 1];
    const value = over?.type === 'Identifier' && Object.hasOwn(constants, over.value) ? constants[over.value] : undefined;
    const count = Array.isArray(value) ? value.length : typeof value === 'string' ? value.length : -1;
    if (count < 0 || tokens[inAt + 2]?.type !== 'CloseStatement') return 'it loops over something other than a literal list among the node\'s inputs';
    if (count * length > MAX_RENDERED_CHARS) return `its loop over ${over?.value} would render more than ${MAX_RENDERED_CHARS} characters`;
  }
  return null;
}

// Each part consumes its own characters (no two adjacent quantifiers overlap), so a hostile
// prompt cannot make these backtrack.
const FOR_HEAD = /\{%-?\s*for\s+[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s+in\s+([A-Za-z_]\w*)\s*-?%\}/g;
const FOR_TAGS = /\{%-?\s*(for|endfor)\b[^%]*-?%\}/g;

/**
 * Each loop over a runtime value, replaced by a mark that becomes the value's placeholder: a
 * step's template has no loop, so the list reaches the model whole (as JSON) where Prompt flow
 * would have written one block per item. The report says so, loop by loop.
 */
function carryRuntimeLoops(source: string, runtime: ReadonlySet<string>, marks: string[], loops: CarriedLoop[]): string {
  let text = source;
  for (let guard = 0; guard < 100; guard++) {
    const head = [...text.matchAll(FOR_HEAD)].find((m) => runtime.has(m[1] as string));
    if (!head) return text;
    let depth = 0;
    let end = -1;
    for (const tag of text.slice(head.index).matchAll(FOR_TAGS)) {
      depth += tag[1] === 'for' ? 1 : -1;
      if (depth === 0) {
        end = head.index + (tag.index ?? 0) + tag[0].length;
        break;
      }
    }
    if (end < 0) return text;
    const over = head[1] as string;
    marks.push(over);
    loops.push({ over, loop: `${head[0]} … {% endfor %} (${end - head.index} characters)` });
    text = `${text.slice(0, head.index)}\uE000${marks.length - 1}\uE001${text.slice(end)}`;
  }
  return text;
}

/** The runtime names a template uses anywhere but as a whole `{{ name }}`, each with where. */
function runtimeInConstructs(tokens: readonly Token[], runtime: ReadonlySet<string>): string | null {
  let tag: string | null = null;
  for (const [i, t] of tokens.entries()) {
    if (t.type === 'OpenStatement' || t.type === 'OpenExpression') tag = t.type === 'OpenStatement' ? 'statement' : 'expression';
    if (t.type === 'CloseStatement' || t.type === 'CloseExpression') tag = null;
    if (!tag || t.type !== 'Identifier' || !runtime.has(t.value) || tokens[i - 1]?.type === 'Dot') continue;
    const start = tokens.slice(0, i).map((x) => x.type).lastIndexOf(tag === 'statement' ? 'OpenStatement' : 'OpenExpression');
    const end = tokens.findIndex((x, j) => j > i && (x.type === 'CloseStatement' || x.type === 'CloseExpression'));
    const shown = tokens.slice(start, end + 1).map((x) => x.value).join(' ').replace(/\s+/g, ' ').slice(0, 120);
    return `${shown} uses ${t.value}, a value known only when the flow runs: a step's template has no loop, condition or filter, only {placeholders}`;
  }
  return null;
}

/**
 * The template a Jinja prompt comes to: literal inputs rendered in, runtime values as
 * placeholders (`vars` lists them), `rendered` when Jinja beyond `{{ name }}` was interpreted; or
 * why it cannot be a Seamscope template.
 *
 * @example
 * jinjaPrompt('{% for e in shots %}Q: {{ e.q }}\n{% endfor %}Q: {{ question }}', { shots: [{ q: 'a' }] }, new Set(['question']));
 * // { template: 'Q: a\nQ: {question}', vars: ['question'], rendered: true }
 */
export function jinjaPrompt(source: string, constants: Record<string, unknown>, runtime: ReadonlySet<string>): JinjaTemplate {
  const whole = tokensOf(source);
  if ('problem' in whole) return whole;
  const marks: string[] = [];
  const loops: CarriedLoop[] = [];
  const marked = carryRuntimeLoops(source, runtime, marks, loops).replace(SIMPLE, (match, name: string) => {
    if (!runtime.has(name.split('.')[0] as string)) return match;
    marks.push(name);
    return `\uE000${marks.length - 1}\uE001`;
  });
  const tokens = tokensOf(marked);
  if ('problem' in tokens) return tokens;
  const inConstruct = runtimeInConstructs(tokens, runtime);
  if (inConstruct) return { problem: inConstruct };
  const rendered = tokens.some((t) => t.type !== 'Text');
  let text = marked;
  if (rendered) {
    const why = unbounded(tokens, constants, marked.length);
    if (why) return { problem: `${why}; only {{ name }} and loops and conditions over the node's literal inputs are rendered at import` };
    const env = new Environment();
    for (const [key, value] of Object.entries(constants)) env.set(key, value);
    try {
      text = String(new Interpreter(env).run(parseJinja(tokens)).value);
    } catch (error) {
      return { problem: `it does not render (${error instanceof Error ? error.message.slice(0, 160) : 'unrenderable'})` };
    }
    // jinja2 in Prompt flow keeps a trailing newline; the interpreter drops it.
    if (marked.endsWith('\n') && !text.endsWith('\n')) text += '\n';
  }
  const literal = text.replace(MARK, '').match(PLACEHOLDER_PATTERN);
  if (literal) return { problem: `it has the text ${literal[0]}, which a Seamscope template would fill in` };
  const template = text.replace(MARK, (_m, i: string) => `{${marks[Number(i)]}}`);
  const vars = [...new Set([...template.matchAll(PLACEHOLDER_PATTERN)].map((m) => (m[1] ?? '').split('.')[0] as string))];
  return { template, vars, rendered, loops };
}

/** A Jinja template as a Seamscope template when it uses only `{{ var }}` (Dify's template-transform reads this; parsed, never rendered). */
/** What a Jinja construct does, in a person's words, for a refusal. */
function jinjaKind(construct: string): string {
  if (construct.startsWith('{#')) return 'a comment (a template here would send it)';
  if (/^\{%-?\s*for\b/.test(construct)) return 'a loop';
  if (/^\{%-?\s*(if|elif|else)\b/.test(construct)) return 'a condition';
  if (construct.startsWith('{%')) return 'a statement';
  if (/\|/.test(construct)) return 'a filter';
  if (/\(/.test(construct)) return 'a call';
  if (/[.[]/.test(construct)) return 'attribute access';
  return 'an expression';
}

export function jinjaToTemplate(source: string): { template: string; vars: string[] } | { problem: string } {
  const parsed = tokensOf(source);
  if ('problem' in parsed) return parsed;
  const rest = source.replace(SIMPLE_VAR, '');
  const construct = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}|\{\{|\{%|\{#/.exec(rest);
  if (construct) return { problem: `it uses Jinja beyond {{ var }}: ${construct[0].slice(0, 80)} is ${jinjaKind(construct[0])} over values known only at run time, and a template step only puts values in place (Jinja is rendered at import, over literal values only, never at run time: an exported program would have to render it the same way)` };
  const literal = rest.match(PLACEHOLDER_PATTERN);
  if (literal) return { problem: `it has the text ${literal[0]}, which a Seamscope template would fill in` };
  const template = source.replace(SIMPLE_VAR, (_whole, name: string) => `{${name}}`);
  return { template, vars: [...new Set([...template.matchAll(PLACEHOLDER_PATTERN)].map((m) => (m[1] ?? '').split('.')[0] as string))] };
}

export type ChatRole = 'system' | 'user' | 'assistant';

/**
 * The messages of a rendered Prompt flow chat prompt, split at its role lines (`# system:`,
 * `user:`, any case, `#` optional, as Prompt flow's parser reads them); one user message when it
 * has none. Text before the first role line is refused, as Prompt flow refuses it.
 */
export function chatMessages(text: string): { role: ChatRole; content: string }[] | { problem: string } {
  const parts = text.split(/^[ \t]*(?:#[ \t]*)?(system|user|assistant|function|tool)[ \t]*:[ \t]*$/im);
  if (parts.length === 1) return [{ role: 'user', content: text.trim() }];
  if ((parts[0] ?? '').trim() !== '') return { problem: `it has text before its first role line ("${(parts[0] ?? '').trim().slice(0, 60)}"), which Prompt flow's chat parser refuses` };
  const messages: { role: ChatRole; content: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const role = (parts[i] as string).toLowerCase();
    if (role !== 'system' && role !== 'user' && role !== 'assistant') return { problem: `it has a ${role} message, which no step here sends` };
    messages.push({ role, content: (parts[i + 1] ?? '').trim() });
  }
  return messages;
}
