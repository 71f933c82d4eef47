import { setOwn } from '../chain/own.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';

/**
 * The Flowise prompt and parser nodes that are text or data, read without running anything:
 * a Few Shot Prompt Template written out as one template (its examples as the author wrote
 * them), and an Advanced Structured Output Parser's zod schema read as a JSON Schema by a small
 * parser of zod's declarative subset (never evaluated: anything outside it is refused by name).
 */

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** LangChain's f-string variables: `{name}`, with `{{` and `}}` literal braces. */
const VARIABLE = /(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g;

/**
 * A Few Shot Prompt Template as LangChain formats it: prefix, each example through the example
 * prompt, suffix, joined by the separator. The examples' values are written in (the author's
 * own text); the prefix's and suffix's variables stay variables, for the chain to fill.
 */
export function fewShotTemplate(inputs: Record<string, unknown>, examplePrompt: Record<string, unknown> | undefined): { template: string; examples: number } | { problem: string } {
  if (text(inputs.templateFormat) === 'jinja-2') return { problem: 'its template format is Jinja, which is not imported here' };
  if (!examplePrompt) return { problem: 'it has no example prompt wired to it' };
  const exampleTemplate = text(examplePrompt.template);
  if (!exampleTemplate) return { problem: 'its example prompt has no template' };
  let examples: unknown = inputs.examples;
  if (typeof examples === 'string') {
    const read = parseStrictJson(examples);
    if (!read.ok) return { problem: `its examples are not JSON (${read.message})` };
    examples = read.value;
  }
  if (!Array.isArray(examples) || examples.length === 0 || !examples.every(isRecord)) return { problem: 'its examples are not a list of objects' };
  const rendered: string[] = [];
  for (const [i, example] of examples.entries()) {
    let missing = '';
    const one = exampleTemplate.replace(VARIABLE, (whole, name: string) => {
      const value = propertyOf(example, name);
      if (value === undefined) missing ||= name;
      return typeof value === 'string' ? value : value === undefined ? whole : JSON.stringify(value);
    });
    if (missing) return { problem: `example ${i + 1} has no value for {${missing}}` };
    // A written-in value that reads as a placeholder would be filled in, not sent as written.
    const literal = Object.values(example).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')).join('\n').match(PLACEHOLDER_PATTERN);
    if (literal) return { problem: `example ${i + 1} has the text ${literal[0]}, which a Seamscope template would fill in` };
    rendered.push(one.replace(/\{\{/g, '{').replace(/\}\}/g, '}'));
  }
  const separator = typeof inputs.exampleSeparator === 'string' ? inputs.exampleSeparator : '\n\n';
  const template = [text(inputs.prefix), ...rendered, text(inputs.suffix)].filter(Boolean).join(separator);
  return { template, examples: rendered.length };
}

/** A tiny reader of zod's declarative subset: `z.object({...})`, `z.string()`, `.describe("…")`, `.optional()` and the like. */
class ZodReader {
  private at = 0;
  constructor(private readonly source: string) {}

  read(): Record<string, unknown> {
    const schema = this.value(0);
    this.space();
    if (this.at < this.source.length) this.fail('text after the schema');
    return schema.schema;
  }

  private fail(what: string): never {
    throw new Error(`${what} at character ${this.at + 1}`);
  }
  /** Blanks and comments (the parser's default schema explains each field in a // comment). */
  private space() {
    for (;;) {
      while (/\s/.test(this.source[this.at] ?? '')) this.at++;
      if (this.source.startsWith('//', this.at)) {
        const end = this.source.indexOf('\n', this.at);
        this.at = end < 0 ? this.source.length : end;
      } else if (this.source.startsWith('/*', this.at)) {
        const end = this.source.indexOf('*/', this.at + 2);
        if (end < 0) this.fail('an unterminated comment');
        this.at = end + 2;
      } else return;
    }
  }
  private number(): number {
    this.space();
    const m = /^\d{1,9}/.exec(this.source.slice(this.at, this.at + 10));
    if (!m) this.fail('expected a whole number');
    this.at += m[0].length;
    return Number(m[0]);
  }
  private eat(token: string): boolean {
    this.space();
    if (!this.source.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }
  private expect(token: string) {
    if (!this.eat(token)) this.fail(`expected ${token}`);
  }
  private name(): string {
    this.space();
    const m = /^[A-Za-z_$][\w$]*/.exec(this.source.slice(this.at, this.at + 200));
    if (!m) this.fail('expected a name');
    this.at += m[0].length;
    return m[0];
  }
  private string(): string {
    this.space();
    const quote = this.source[this.at];
    if (quote !== '"' && quote !== '\'' && quote !== '`') this.fail('expected a string');
    let out = '';
    for (this.at++; this.at < this.source.length; this.at++) {
      const c = this.source[this.at] as string;
      if (c === quote) {
        this.at++;
        return out;
      }
      if (quote === '`' && c === '$' && this.source[this.at + 1] === '{') this.fail('a template expression (code)');
      if (c === '\\') {
        const next = this.source[++this.at] ?? '';
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else out += c;
    }
    return this.fail('an unterminated string');
  }
  private key(): string {
    this.space();
    return /["'`]/.test(this.source[this.at] ?? '') ? this.string() : this.name();
  }

  /** One `z.…` value and its chained modifiers; `optional` when `.optional()` was among them. */
  private value(depth: number): { schema: Record<string, unknown>; optional: boolean } {
    if (depth > 32) this.fail('nesting deeper than 32');
    this.expect('z');
    this.expect('.');
    const kind = this.name();
    this.expect('(');
    let schema: Record<string, unknown>;
    switch (kind) {
      case 'string': schema = { type: 'string' }; break;
      case 'number': schema = { type: 'number' }; break;
      case 'boolean': schema = { type: 'boolean' }; break;
      case 'array': schema = { type: 'array', items: this.value(depth + 1).schema }; break;
      case 'enum': {
        this.expect('[');
        const values: string[] = [];
        while (!this.eat(']')) {
          values.push(this.string());
          if (!this.eat(',')) {
            this.expect(']');
            break;
          }
        }
        schema = { type: 'string', enum: values };
        break;
      }
      case 'object': {
        this.expect('{');
        const properties: Record<string, unknown> = {};
        const required: string[] = [];
        while (!this.eat('}')) {
          const key = this.key();
          this.expect(':');
          const field = this.value(depth + 1);
          setOwn(properties, key, field.schema);
          if (!field.optional) required.push(key);
          if (!this.eat(',')) {
            this.expect('}');
            break;
          }
        }
        schema = { type: 'object', properties, required, additionalProperties: false };
        break;
      }
      default: return this.fail(`z.${kind}() is not read here`);
    }
    this.expect(')');
    let optional = false;
    while (this.eat('.')) {
      const modifier = this.name();
      this.expect('(');
      if (modifier === 'describe') schema = { ...schema, description: this.string() };
      else if (modifier === 'optional') optional = true;
      else if (modifier === 'int' && schema.type === 'number') schema = { ...schema, type: 'integer' };
      else if (modifier === 'array') schema = { type: 'array', items: schema };
      else if (modifier === 'max' || modifier === 'min') {
        const n = this.number();
        const bound = schema.type === 'array' ? 'Items' : schema.type === 'string' ? 'Length' : '';
        schema = { ...schema, [bound ? `${modifier}${bound}` : modifier === 'max' ? 'maximum' : 'minimum']: n };
      } else this.fail(`.${modifier}() is not read here`);
      this.expect(')');
    }
    return { schema, optional };
  }
}

/**
 * An Advanced Structured Output Parser's zod schema as a JSON Schema, read (never run) when it is
 * zod's declarative subset: object, string, number (int), boolean, array, enum, describe, optional.
 */
export function schemaOfZod(code: string): { schema: Record<string, unknown> } | { problem: string } {
  if (code.length > 50_000) return { problem: 'its zod schema is longer than 50,000 characters' };
  try {
    const schema = new ZodReader(code.trim().replace(/;$/, '')).read();
    return schema.type === 'object' ? { schema } : { problem: 'its zod schema is not z.object(…): a step answers a JSON object' };
  } catch (error) {
    return { problem: `its zod schema is code beyond zod's declarative subset, which an import never runs (${(error as Error).message})` };
  }
}
