import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Chain } from '../chain/schema.ts';
import { MARKER_PIECES } from './adversarial-exports.ts';
import { exportProgram } from '../export/export-chain.ts';
import { routedChain, twoStepChain } from './chain-fixtures.ts';
import { PROTO_NAMES, protoNamesChain } from './proto-chain.ts';

/**
 * Generated hostile chain, run (trace), OTLP and inputs files, each with the outcome it must
 * have. The unit tests run every case through the CLI (and the chain and trace cases through
 * the app's import); the battery's suite B4 builds on the same list. A case is data only —
 * file texts, extra files, symlinks — so it can be written to any folder and tried by any
 * reader.
 *
 * Cases are refused with the JSON path and a message naming the problem, or accepted where
 * the rule is that the value works (marker text, prototype names, escape characters in names):
 * then the command succeeds and whatever it prints is escaped.
 */

/** Which command of the CLI reads the file. */
export type HostileCommand = 'validate' | 'run' | 'inspect' | 'export' | 'convert';

export type HostileExpectation =
  /** Refused: the output names `path` and contains `message`; nothing is written. */
  | { outcome: 'refused'; path: string; message: string }
  /** Accepted: the command exits 0. */
  | { outcome: 'accepted' };

export interface HostileCase {
  /** Stable and unique, e.g. `path/parent-dir`. */
  id: string;
  /** The item of issue #11 the case proves. */
  item: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 11;
  /** What the main file is. */
  kind: 'chain' | 'run' | 'otlp' | 'langfuse' | 'inputs' | 'program' | 'yaml';
  command: HostileCommand;
  /** The file the command reads, relative to the case folder. */
  file: string;
  text: string;
  /** More files in the case folder (relative path → text), e.g. an inputs file or a document. */
  files?: Record<string, string>;
  /**
   * Symlinks in the case folder (relative path → target). A target starting with `@outside/`
   * points into the folder beside the case folder, which holds `secret.txt`.
   */
  symlinks?: Record<string, string>;
  /** For `run`: the inputs file, relative to the case folder. */
  inputs?: string;
  expect: HostileExpectation;
}

/** The text of the secret beside every case folder: it must never appear in any output. */
export const OUTSIDE_SECRET = 'SEAMSCOPE-OUTSIDE-SECRET-CANARY';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A one-input chain that outputs its input: the smallest chain a `run` reads files for. */
export function echoChain(inputFiles?: Record<string, unknown>): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'echo', name: 'Echo',
    ...(inputFiles ? { meta: { inputFiles } } : {}),
    inputs: [{ name: 'doc', schema: { type: 'string' }, trust: 'untrusted', required: true }],
    steps: [{ id: 'out', kind: 'output', name: 'Out', position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.doc' } } }],
  };
}

/** File names a chain must not be able to read with, and the words of the reason it is refused. */
export const HOSTILE_FILE_NAMES: readonly { id: string; name: string; reason: string }[] = [
  { id: 'parent', name: '../secret.txt', reason: 'climbs out' },
  { id: 'parent-deep', name: '../../../../../../etc/passwd', reason: 'climbs out' },
  { id: 'inner-parent', name: 'docs/../../secret.txt', reason: 'climbs out' },
  { id: 'inside-parent', name: 'docs/../doc.txt', reason: 'climbs out' },
  { id: 'dotdot', name: '..', reason: 'climbs out' },
  { id: 'absolute', name: '/etc/passwd', reason: 'absolute path' },
  { id: 'absolute-root', name: '/', reason: 'absolute path' },
  { id: 'unc-slashes', name: '//server/share/secret.txt', reason: 'absolute path' },
  { id: 'unc-backslashes', name: '\\\\server\\share\\secret.txt', reason: 'backslash' },
  { id: 'backslash-parent', name: '..\\secret.txt', reason: 'backslash' },
  { id: 'mixed-slashes', name: 'docs\\..\\..\\secret.txt', reason: 'backslash' },
  { id: 'drive', name: 'C:/Windows/win.ini', reason: 'drive letter' },
  { id: 'drive-relative', name: 'c:secret.txt', reason: 'drive letter' },
  { id: 'file-url', name: 'file:///etc/passwd', reason: ':' },
  { id: 'http-url', name: 'http://127.0.0.1:9911/secret', reason: ':' },
  { id: 'stream', name: 'doc.txt:hidden', reason: ':' },
  { id: 'home', name: '~/.ssh/id_rsa', reason: '~' },
  { id: 'nul', name: 'doc.txt\u0000../../secret.txt', reason: 'NUL' },
  { id: 'esc', name: 'doc\u001b[2J.txt', reason: 'control character' },
  { id: 'trailing-dot-space', name: '.. /secret.txt', reason: 'dot or space' },
  { id: 'three-dots', name: '.../secret.txt', reason: 'dot or space' },
  { id: 'empty', name: '', reason: 'empty' },
  { id: 'folder', name: 'docs/', reason: 'folder' },
  { id: 'double-slash', name: 'docs//doc.txt', reason: 'empty folder' },
  { id: 'long', name: `${'a/'.repeat(600)}x`, reason: 'longer than' },
];

function pathCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const docs = { 'docs/doc.txt': 'inside the folder' };
  for (const { id, name, reason } of HOSTILE_FILE_NAMES) {
    cases.push({
      id: `path/input-files/${id}`, item: 1, kind: 'chain', command: 'validate', file: 'evil.chain.json', files: docs,
      text: json(echoChain({ doc: name })), expect: { outcome: 'refused', path: '$.meta.inputFiles.doc', message: reason },
    });
    cases.push({
      id: `path/inputs-file/${id}`, item: 1, kind: 'inputs', command: 'run', file: 'echo.chain.json', inputs: 'inputs.json',
      text: json(echoChain()), files: { ...docs, 'inputs.json': json({ doc: { $file: name } }) },
      expect: { outcome: 'refused', path: '$.doc["$file"]', message: reason },
    });
  }
  cases.push({
    id: 'path/input-files/not-a-string', item: 1, kind: 'chain', command: 'validate', file: 'evil.chain.json',
    text: json(echoChain({ doc: { path: '../secret.txt' } })), expect: { outcome: 'refused', path: '$.meta.inputFiles.doc', message: 'not a string' },
  });
  // Symlinks: names that pass the text check and lead out of the folder on disk.
  const links: { id: string; links: Record<string, string>; name: string }[] = [
    { id: 'file-link', links: { 'link.txt': '@outside/secret.txt' }, name: 'link.txt' },
    { id: 'folder-link', links: { up: '@outside' }, name: 'up/secret.txt' },
    { id: 'relative-link', links: { 'rel.txt': '../outside/secret.txt' }, name: 'rel.txt' },
    { id: 'link-chain', links: { 'a.txt': 'b.txt', 'b.txt': '@outside/secret.txt' }, name: 'a.txt' },
    { id: 'nested-folder-link', links: { 'docs/deeper': '@outside' }, name: 'docs/deeper/secret.txt' },
    { id: 'link-to-root', links: { 'root.txt': '/etc/passwd' }, name: 'root.txt' },
  ];
  for (const l of links) {
    cases.push({
      id: `path/symlink/${l.id}`, item: 1, kind: 'chain', command: 'run', file: 'evil.chain.json', files: docs, symlinks: l.links,
      text: json(echoChain({ doc: l.name })), expect: { outcome: 'refused', path: '$.meta.inputFiles.doc', message: 'link that points outside the folder' },
    });
    cases.push({
      id: `path/symlink-inputs/${l.id}`, item: 1, kind: 'inputs', command: 'run', file: 'echo.chain.json', inputs: 'inputs.json', symlinks: l.links,
      text: json(echoChain()), files: { ...docs, 'inputs.json': json({ doc: { $file: l.name } }) },
      expect: { outcome: 'refused', path: '$.doc["$file"]', message: 'link that points outside the folder' },
    });
  }
  return cases;
}

/** Strings that hide a chain between markers: the file must still be the chain it shows. */
function markerCases(): HostileCase[] {
  const hidden = json({ ...twoStepChain(), id: 'hidden', name: 'Hidden' });
  const texts = [...MARKER_PIECES, `<seamscope:chain>\n${hidden}\n</seamscope:chain>`, `\n// <seamscope:chain>\nexport const CHAIN: rt.ChainDefinition = ${hidden};\n// </seamscope:chain>\n`];
  const cases: HostileCase[] = [];
  texts.forEach((text, i) => {
    const chain = routedChain();
    chain.name = `Routed ${text}`.slice(0, 200);
    chain.description = text;
    chain.meta = { notes: text };
    (chain.steps[0] as Chain['steps'][number]).config.prompt = `Classify: {ticket} ${text.replace(/[{}]/g, '')}`;
    for (const command of ['validate', 'export'] as const) {
      cases.push({ id: `marker/${command}/${i}`, item: 3, kind: 'chain', command, file: 'marker.chain.json', text: json(chain), expect: { outcome: 'accepted' } });
    }
  });
  const program = exportProgram(twoStepChain(), { lang: 'ts' }).program.contents;
  cases.push(
    { id: 'marker/program-as-chain-json', item: 3, kind: 'chain', command: 'validate', file: 'x.chain.json', text: program, expect: { outcome: 'refused', path: '$', message: 'not valid JSON' } },
    { id: 'marker/two-blocks', item: 3, kind: 'program', command: 'validate', file: 'x.ts', text: `${program}\n${program}`, expect: { outcome: 'refused', path: '$', message: '2 embedded chain blocks' } },
    { id: 'marker/cut-block', item: 3, kind: 'program', command: 'validate', file: 'x.ts', text: program.replace('// </seamscope:chain>', '// end'), expect: { outcome: 'refused', path: '$', message: 'was cut' } },
    { id: 'marker/no-block', item: 3, kind: 'program', command: 'validate', file: 'x.py', text: 'print("<seamscope:chain>")\n', expect: { outcome: 'refused', path: '$', message: 'neither a chain file' } },
  );
  return cases;
}

function withInputSchema(schema: Record<string, unknown>): Chain {
  const chain = twoStepChain();
  chain.inputs[0] = { ...(chain.inputs[0] as Chain['inputs'][number]), schema };
  return chain;
}

function deepSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'array', items: schema };
  return schema;
}

/** Declared sizes over the limits, numbers that overflow, keys written twice. */
function sizeCases(): HostileCase[] {
  const refused = (id: string, text: string, path: string, message: string, command: HostileCommand = 'validate'): HostileCase => ({
    id, item: 6, kind: 'chain', command, file: 'size.chain.json', text, expect: { outcome: 'refused', path, message },
  });
  const sizes: [string, Record<string, unknown>, string][] = [
    ['min-items', { type: 'array', minItems: 100_000_000 }, '$.inputs[0].schema.minItems'],
    ['max-items', { type: 'array', maxItems: 1e15 }, '$.inputs[0].schema.maxItems'],
    ['min-length', { type: 'string', minLength: 1e9 }, '$.inputs[0].schema.minLength'],
    ['max-length', { type: 'string', maxLength: 1e12 }, '$.inputs[0].schema.maxLength'],
    ['min-properties', { type: 'object', minProperties: 1e7 }, '$.inputs[0].schema.minProperties'],
    ['max-contains', { type: 'array', contains: { type: 'string' }, maxContains: 1e9 }, '$.inputs[0].schema.maxContains'],
    ['nested-min-items', { type: 'object', properties: { a: { type: 'array', items: { type: 'array', minItems: 1e8 } } } }, '$.inputs[0].schema.properties.a.items.minItems'],
    ['one-of-min-length', { oneOf: [{ type: 'string', minLength: 1e9 }] }, '$.inputs[0].schema.oneOf[0].minLength'],
    ['enum-size', { enum: Array.from({ length: 20_000 }, (_, i) => `v${i}`) }, '$.inputs[0].schema.enum'],
    ['required-size', { type: 'object', required: Array.from({ length: 20_000 }, (_, i) => `p${i}`) }, '$.inputs[0].schema.required'],
    ['depth', deepSchema(40), '$.inputs[0].schema'],
  ];
  const cases = sizes.map(([id, schema, path]) => refused(`size/${id}`, json(withInputSchema(schema)), path, 'over the limit of'));
  (cases[cases.length - 1] as HostileCase).expect = { outcome: 'refused', path: '$.inputs[0].schema', message: 'deeper than 32 levels' };
  const output = twoStepChain();
  (output.steps[0] as Chain['steps'][number]).config.outputSchema = { type: 'object', properties: { facts: { type: 'array', minItems: 100_000_000 } } };
  cases.push(refused('size/output-min-items-run', json(output), '$.steps[0].config.outputSchema.properties.facts.minItems', 'over the limit of', 'run'));
  const many = twoStepChain();
  many.steps = Array.from({ length: 20_001 }, (_, i) => ({ id: `s${i}`, kind: 'output', name: 's', position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.document' } } }));
  cases.push(refused('size/steps', JSON.stringify(many), '$.steps', '20000'));

  const base = json(twoStepChain());
  const overflow: [string, string, string, string][] = [
    ['max-length', '"type": "string"', '"type": "string", "maxLength": 1e400', '$.inputs[0].schema.maxLength'],
    ['negative', '"type": "string"', '"type": "string", "minLength": -1e400', '$.inputs[0].schema.minLength'],
    ['position', '"x": 280', '"x": 1e400', '$.steps[1].position.x'],
    ['retries', '"retries": 1', '"retries": 1e999', '$.steps[0].config.retries'],
    ['example', '"required": true\n    },\n    {', '"required": true, "example": [1, 2, 1e400]\n    },\n    {', '$.inputs[0].example[2]'],
    ['long-digits', '"x": 280', `"x": 1${'0'.repeat(400)}`, '$.steps[1].position.x'],
  ];
  for (const [id, find, replace, path] of overflow) cases.push(refused(`non-finite/${id}`, base.replace(find, replace), path, 'too large'));
  const duplicates: [string, string, string, string][] = [
    ['prompt', '"prompt": "Facts:', '"prompt": "Ignore the facts.",\n          "prompt": "Facts:', '$.steps[1].config.prompt'],
    ['id', '"id": "two-step"', '"id": "two-step", "id": "other"', '$.id'],
    ['steps', '"steps": [', '"steps": [], "steps": [', '$.steps'],
    ['input-name', '"name": "document"', '"name": "document", "name": "question"', '$.inputs[0].name'],
    ['schema-property', '"answer": {', '"answer": { "type": "number" }, "answer": {', '$.steps[1].config.outputSchema.properties.answer'],
    ['escaped-twin', '"format": "seamscope.chain"', '"format": "seamscope.chain", "\\u0066ormat": "seamscope.chain"', '$.format'],
    ['bindings', '"bindings": {\n          "document"', '"bindings": { "document": "inputs.question" }, "bindings": {\n          "document"', '$.steps[0].config.bindings'],
  ];
  for (const [id, find, replace, path] of duplicates) cases.push(refused(`duplicate-key/${id}`, base.replace(find, replace), path, 'appears twice'));
  // The same rules for run files (inspect), OTLP traces and inputs files.
  const runFile = json({ format: 'seamscope.run', version: 1, run: { id: 'r', chainId: 'c', status: 'succeeded', chain: {}, inputs: {} }, events: [{ type: 'run.started', at: 1 }] });
  cases.push(
    { id: 'duplicate-key/run-file', item: 6, kind: 'run', command: 'inspect', file: 'x.run.json', text: runFile.replace('"status": "succeeded"', '"status": "failed", "status": "succeeded"'), expect: { outcome: 'refused', path: '$.run.status', message: 'appears twice' } },
    { id: 'non-finite/run-file', item: 6, kind: 'run', command: 'inspect', file: 'x.run.json', text: runFile.replace('"at": 1', '"at": 1e400'), expect: { outcome: 'refused', path: '$.events[0].at', message: 'too large' } },
    { id: 'duplicate-key/inputs-file', item: 6, kind: 'inputs', command: 'run', file: 'echo.chain.json', inputs: 'inputs.json', text: json(echoChain()), files: { 'inputs.json': '{"doc": "shown", "doc": "used"}' }, expect: { outcome: 'refused', path: '$.doc', message: 'appears twice' } },
    { id: 'non-finite/inputs-file', item: 6, kind: 'inputs', command: 'run', file: 'echo.chain.json', inputs: 'inputs.json', text: json(echoChain()), files: { 'inputs.json': '{"doc": 1e400}' }, expect: { outcome: 'refused', path: '$.doc', message: 'too large' } },
  );
  return cases;
}

/** OTLP traces with the same hostile JSON (read by the app's trace import, not the CLI). */
export function hostileOtlpTexts(): { id: string; text: string; message: string }[] {
  const span = { traceId: '0'.repeat(32), spanId: '1'.repeat(16), name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2' };
  const text = json({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  return [
    { id: 'otlp/duplicate-key', text: text.replace('"name": "chat"', '"name": "chat", "name": "other"'), message: 'appears twice' },
    { id: 'otlp/non-finite', text: text.replace('"endTimeUnixNano": "2"', '"endTimeUnixNano": 1e400'), message: 'too large' },
  ];
}

/**
 * OTLP and Langfuse trace files as `inspect` and `convert` read them: the strict-JSON rules,
 * the size, count and depth limits, `__proto__`, wrong types (item 6), and terminal payloads in
 * every name and text the commands print (item 7, accepted and printed escaped).
 */
function traceFileCases(): HostileCase[] {
  const span = { traceId: '0'.repeat(31) + '1', spanId: '1'.repeat(16), name: 'chat', kind: 'SPAN_KIND_CLIENT', startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'gen_ai.completion', value: { stringValue: 'ok' } }] };
  const otlp = json({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  const observation = { id: 'g1', type: 'GENERATION', name: 'chat', startTime: '2025-01-01T00:00:00Z', input: 'Hi', output: 'Hello', usageDetails: { input: 1, output: 1 } };
  const langfuse = (observations: unknown[], trace: Record<string, unknown> = { id: 't', name: 'trace' }) => json({ trace, observations });
  const base = langfuse([observation]);
  const cases: HostileCase[] = [];
  const refused = (id: string, kind: 'otlp' | 'langfuse', text: string, path: string, message: string) => {
    for (const command of ['inspect', 'convert'] as const) {
      cases.push({ id: `trace/${kind}/${id}/${command}`, item: 6, kind, command, file: kind === 'otlp' ? 'x.otlp.json' : 'x.trace.json', text, expect: { outcome: 'refused', path, message } });
    }
  };
  refused('duplicate-key', 'otlp', otlp.replace('"name": "chat"', '"name": "chat", "name": "other"'), 'spans[0].name', 'appears twice');
  refused('non-finite', 'otlp', otlp.replace('"endTimeUnixNano": "2"', '"endTimeUnixNano": 1e400'), 'spans[0].endTimeUnixNano', 'too large');
  refused('enum-name', 'otlp', otlp.replace('SPAN_KIND_CLIENT', 'SPAN_KIND_BOGUS'), 'spans[0].kind', 'a span kind name');
  refused('duplicate-key', 'langfuse', base.replace('"name": "chat"', '"name": "chat", "name": "other"'), 'observations[0].name', 'appears twice');
  refused('non-finite', 'langfuse', base.replace('"output": 1', '"output": 1e400'), 'observations[0].usageDetails.output', 'too large');
  refused('too-many', 'langfuse', langfuse(Array.from({ length: 10_001 }, (_, i) => ({ ...observation, id: `g${i}` }))), 'observations', 'at most 10000 observations');
  refused('deep', 'langfuse', base.replace('"input": "Hi"', `"input": ${'['.repeat(100)}${']'.repeat(100)}`), 'observations[0].input', 'nested deeper than 64 levels');
  refused('proto', 'langfuse', base.replace('"id": "g1"', '"__proto__": {"polluted": true}, "id": "g1"'), 'observations[0].__proto__', 'is not allowed');
  refused('wrong-type', 'langfuse', base.replace('"startTime": "2025-01-01T00:00:00Z"', '"startTime": 5'), 'observations[0].startTime', 'must be a string');
  refused('no-generation', 'langfuse', langfuse([{ ...observation, type: 'SPAN' }]), 'x.trace.json', 'no generations found');
  const payloads = ['\u001b[2J\u001b[H', '\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007', '\u202eevil\u202c', 'line\nforged: ok'];
  payloads.forEach((p, i) => {
    const named = langfuse([{ ...observation, name: `chat ${p}`, output: `Hello ${p}`, model: `m${p}` }], { id: `t${p}`, name: `trace ${p}` });
    const spanNamed = json({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: `svc ${p}` } }] }, scopeSpans: [{ spans: [{ ...span, name: `chat ${p}` }] }] }] });
    for (const command of ['inspect', 'convert'] as const) {
      cases.push({ id: `terminal/langfuse/${command}/${i}`, item: 7, kind: 'langfuse', command, file: 'term.trace.json', text: named, expect: { outcome: 'accepted' } });
      cases.push({ id: `terminal/otlp/${command}/${i}`, item: 7, kind: 'otlp', command, file: 'term.otlp.json', text: spanNamed, expect: { outcome: 'accepted' } });
    }
  });
  return cases;
}

/** Control and bidi characters in every name the CLI prints: accepted, printed escaped. */
function terminalCases(): HostileCase[] {
  const payloads = ['\u001b[2J\u001b[H', '\u001b]0;owned\u0007', '\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007', '\r\rfake ok', '\u202eevil\u202c', '\u2066\u2067\u2068\u2069', '\u200e\u200f\u061c', '\u0085\u009b31m', '\u0000\u0007\u0008\u007f', 'line\nforged: ok'];
  const cases: HostileCase[] = [];
  payloads.forEach((p, i) => {
    const chain = routedChain();
    chain.name = `Name ${p}`;
    chain.inputs[0] = { ...(chain.inputs[0] as Chain['inputs'][number]), example: `ticket ${p}` };
    for (const command of ['validate', 'run', 'export'] as const) {
      cases.push({ id: `terminal/${command}/${i}`, item: 7, kind: 'chain', command, file: 'term.chain.json', text: json(chain), expect: { outcome: 'accepted' } });
    }
    const target = routedChain();
    (target.steps[1] as Chain['steps'][number]).config.defaultTo = `nowhere${p}`;
    cases.push({ id: `terminal/route-target/${i}`, item: 7, kind: 'chain', command: 'validate', file: 'term.chain.json', text: json(target), expect: { outcome: 'refused', path: '$.steps[1].config', message: 'goes to "nowhere' } });
  });
  return cases;
}

/** Prototype names as input names, enum values, property names and route labels. */
function protoCases(): HostileCase[] {
  const cases: HostileCase[] = PROTO_NAMES.flatMap((label) => (['validate', 'run', 'export'] as const).map((command): HostileCase => ({
    id: `proto/${command}/${label}`, item: 11, kind: 'chain', command, file: 'proto.chain.json', text: json(protoNamesChain(label)), expect: { outcome: 'accepted' },
  })));
  cases.push({
    id: 'proto/inputs-file', item: 11, kind: 'inputs', command: 'run', file: 'proto.chain.json', inputs: 'inputs.json', text: json(protoNamesChain('__proto__')),
    files: { 'inputs.json': '{"__proto__": "from the file", "constructor": "c", "toString": "t"}' }, expect: { outcome: 'accepted' },
  });
  // "__proto__" as an object key in the file: refused cleanly (a JavaScript object literal cannot carry it).
  const schemaKey = json(withInputSchema({ type: 'object', properties: { a: { type: 'string' } } })).replace('"a": {', '"__proto__": {');
  cases.push({ id: 'proto/property-key', item: 11, kind: 'chain', command: 'validate', file: 'proto.chain.json', text: schemaKey, expect: { outcome: 'refused', path: '$.inputs[0].schema.properties.__proto__', message: 'the key "__proto__" is not allowed' } });
  return cases;
}

/**
 * Every case, in a stable order.
 *
 * @example
 * for (const c of hostileCases()) { const dir = await writeHostileCase(c); … }
 */
export function hostileCases(): HostileCase[] {
  const cases = [...pathCases(), ...markerCases(), ...sizeCases(), ...terminalCases(), ...protoCases(), ...schemaCases(), ...egressCases(), ...traceFileCases(), ...yamlCases()];
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`two hostile cases are called ${c.id}`);
    ids.add(c.id);
  }
  return cases;
}

/**
 * Hostile YAML in each YAML tool's file (item 6): alias bombs, deep nesting, huge scalars,
 * duplicate keys, tags that ask for code or typed values. Each is refused by the strict YAML
 * reader, quickly and before anything expands, naming the line and column.
 */
function yamlCases(): HostileCase[] {
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...'bcdefghij'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(',')}]`)].join('\n');
  const bodies: [string, string, string][] = [
    ['billion-laughs', `${laughs}\nprompts: [*j]\n`, 'aliases expand to more than'],
    ['deep-flow', `prompts: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`, 'nesting is deeper than'],
    ['deep-block', `prompts:\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')}\n`, 'nesting is deeper than'],
    ['deep-dashes', `prompts:\n  ${'- '.repeat(5000)}x\n`, 'nesting is deeper than'],
    ['huge-scalar', `prompts:\n  - "${'lol '.repeat(1_000_000)}"\n`, 'more than the'],
    ['duplicate-key', 'prompts:\n  - "Summarise {{text}}"\nproviders: [openai:gpt-4o-mini]\nprompts:\n  - "Ignore the text"\n', 'appears twice'],
    ['js-function', 'prompts:\n  - !!js/function "function () { return process.env }"\n', 'the tag !!js/function is not read'],
    ['python-object', 'prompts:\n  - !!python/object/apply:os.system ["id"]\n', 'the tag !!python/object/apply:os.system is not read'],
    ['binary', 'prompts:\n  - !!binary aGVsbG8=\n', 'the tag !!binary is not read'],
    ['custom-tag', 'prompts:\n  - !include ../secret.txt\n', 'the tag !include is not read'],
    ['local-tag-on-map', 'providers:\n  - !provider {id: openai:gpt-4o}\nprompts: [hi]\n', 'the tag !provider is not read'],
    ['two-documents', 'prompts: [hi]\n---\nprompts: [other]\n', 'multiple documents'],
  ];
  const files: [string, string][] = [['promptfoo', 'promptfooconfig.yaml'], ['promptflow', 'flow.dag.yaml'], ['dify', 'app.yml']];
  return files.flatMap(([tool, file]) => bodies.map(([id, body, message]): HostileCase => ({
    id: `yaml/${tool}/${id}`, item: 6, kind: 'yaml', command: 'validate', file,
    // Each tool's own head, so the file is claimed by that tool and read by the strict reader.
    text: tool === 'dify' ? `kind: app\n${body}` : tool === 'promptflow' ? `${body}nodes:\n  - name: n\n    type: llm\n` : body,
    expect: { outcome: 'refused', path: '$', message },
  })));
}

/** Schemas that cannot be checked, or not in linear time, at three depths (items 4 and 5). */
function schemaCases(): HostileCase[] {
  const bad: { id: string; keyword: string; schema: (self: string) => Record<string, unknown>; path: string; message: string }[] = [
    { id: 'open-group', keyword: 'pattern', schema: () => ({ type: 'string', pattern: '(' }), path: '.pattern', message: 'is not a valid regular expression' },
    { id: 'lookahead', keyword: 'pattern', schema: () => ({ type: 'string', pattern: '^(?=a)a$' }), path: '.pattern', message: 'cannot be matched in linear time' },
    { id: 'backreference', keyword: 'pattern', schema: () => ({ type: 'string', pattern: '(a)\\1' }), path: '.pattern', message: 'cannot be matched in linear time' },
    { id: 'pattern-properties', keyword: 'patternProperties', schema: () => ({ type: 'object', patternProperties: { '(?<=x)y': { type: 'string' } } }), path: '.patternProperties', message: 'lookbehind' },
    { id: 'type-typo', keyword: 'type', schema: () => ({ type: 'strin' }), path: '.type', message: 'is not a JSON Schema type' },
    { id: 'ref-loop', keyword: '$ref', schema: (self) => ({ $ref: self }), path: '["$ref"]', message: 'loops' },
    { id: 'ref-missing', keyword: '$ref', schema: () => ({ $ref: '#/$defs/nowhere' }), path: '["$ref"]', message: 'points to nothing' },
  ];
  const depths: { id: string; wrap: (s: Record<string, unknown>) => Record<string, unknown>; at: string; self: string }[] = [
    { id: 'top', wrap: (s) => s, at: '', self: '#' },
    { id: 'property', wrap: (s) => ({ type: 'object', properties: { x: s } }), at: '.properties.x', self: '#/properties/x' },
    { id: 'items', wrap: (s) => ({ type: 'array', items: s }), at: '.items', self: '#/items' },
  ];
  return bad.flatMap((b) => depths.map((d): HostileCase => {
    const chain = echoChain();
    const input = chain.inputs[0];
    if (input) input.schema = d.wrap(b.schema(d.self));
    return {
      id: `schema/${b.id}/${d.id}`, item: b.keyword === 'type' || b.keyword === '$ref' ? 4 : 5, kind: 'chain', command: 'validate', file: 'bad.chain.json', text: json(chain),
      expect: { outcome: 'refused', path: `$.inputs[0].schema${d.at}${b.path}`, message: b.message },
    };
  }));
}

/** A webhook is egress (item 2): refused without --allow-webhook; credentials never in the file. */
function egressCases(): HostileCase[] {
  const hook = (config: Record<string, unknown>): Chain => ({
    format: 'seamscope.chain', version: 1, id: 'hook', name: 'Hook',
    inputs: [{ name: 'doc', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'the document' }],
    steps: [
      { id: 'hook', kind: 'webhook', name: 'Hook', position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.doc' }, url: 'http://127.0.0.1:9911/hook', ...config } },
      { id: 'out', kind: 'output', name: 'Out', position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.doc' } } },
    ],
  });
  const headers = ['Authorization', 'Cookie', 'X-Api-Key', 'Proxy-Authorization', 'x-auth-token'];
  return [
    { id: 'egress/unconfirmed-webhook', item: 2, kind: 'chain', command: 'run', file: 'hook.chain.json', text: json(hook({})), expect: { outcome: 'refused', path: 'http://127.0.0.1:9911', message: 'Nothing was sent' } },
    { id: 'egress/userinfo-url', item: 2, kind: 'chain', command: 'validate', file: 'hook.chain.json', text: json(hook({ url: 'http://user:pw@127.0.0.1:9911/hook' })), expect: { outcome: 'refused', path: '$.steps[0].config.url', message: 'user name or password' } },
    ...headers.map((h): HostileCase => ({
      id: `egress/header-${h.toLowerCase()}`, item: 2, kind: 'chain', command: 'validate', file: 'hook.chain.json', text: json(hook({ headers: { [h]: 'Bearer sk-hostile' } })),
      expect: { outcome: 'refused', path: `$.steps[0].config.headers`, message: 'credentials' },
    })),
  ];
}

/**
 * Writes a case into a fresh folder: `<root>/case/` holds the files and links, `<root>/outside/`
 * holds `secret.txt`. Returns both folders and the path of the file to read.
 */
export async function writeHostileCase(c: HostileCase, root?: string): Promise<{ root: string; folder: string; outside: string; file: string }> {
  const base = root ?? await mkdtemp(join(tmpdir(), 'seamscope-hostile-'));
  const folder = join(base, 'case');
  const outside = join(base, 'outside');
  await mkdir(folder, { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret.txt'), OUTSIDE_SECRET);
  for (const [path, text] of Object.entries({ ...c.files, [c.file]: c.text })) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  for (const [path, target] of Object.entries(c.symlinks ?? {})) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await symlink(target.startsWith('@outside') ? join(outside, target.slice('@outside'.length)) : target, join(folder, path));
  }
  return { root: base, folder, outside, file: join(folder, c.file) };
}

/** Control and bidi characters: none may reach the terminal. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const UNSAFE_PRINTED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]/;

/** Every entry under `dir` (links not followed): path → content hash or link target. */
export async function snapshot(dir: string, into = new Map<string, string>(), root = dir): Promise<Map<string, string>> {
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    const info = await lstat(path);
    const key = relative(root, path);
    if (info.isSymbolicLink()) into.set(key, `link → ${await readlink(path)}`);
    else if (info.isDirectory()) await snapshot(path, into.set(key, 'folder'), root);
    else into.set(key, createHash('sha256').update(await readFile(path)).digest('hex'));
  }
  return into;
}

export function argvFor(c: HostileCase, file: string, root: string): string[] {
  switch (c.command) {
    case 'validate': return ['validate', file];
    case 'inspect': return ['inspect', file];
    case 'convert': return ['convert', file, '--to', 'run', '--out', join(root, 'out', 'converted.run.json')];
    case 'export': return ['export', file, '--lang', 'ts', '--out', join(root, 'out', 'export')];
    case 'run': return ['run', file, '--out', join(root, 'out', 'run.json'), ...(c.inputs ? ['--inputs', join(root, 'case', c.inputs)] : [])];
  }
}

