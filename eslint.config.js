import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

// ── Layers: the one declared list of what may import what ───────────────────────────────────
// Each src/<area> lists the areas it may import (values and types); `types` lists areas it may
// import with `import type` only. Read upwards: files, schema ← providers; files, schema ←
// chain ← trace ← steps ← formats ← collect; steps ← engine ← inspect (← collect, for each trace's verdicts), export ← eval ← batch ← cli. chain and trace take the step
// registry as an argument (they import its interface as a type, never the registry itself).
// src/testing and every *.test.ts may import any area; nothing in src imports app/; app/
// imports only the entries in `entries` below. Checked by eslint-plugin-boundaries.
export const layers = {
  files: { allow: [] },
  schema: { allow: [] },
  providers: { allow: ['schema', 'files'] },
  chain: { allow: ['files', 'schema'], types: ['steps'] },
  trace: { allow: ['chain', 'files'], types: ['providers', 'steps'] },
  steps: { allow: ['chain', 'files', 'schema', 'providers'], types: ['trace'] },
  engine: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace'] },
  inspect: { allow: ['chain', 'files', 'schema', 'steps', 'trace'] },
  // The decomposition planner: pure arithmetic over a split step's units.
  planner: { allow: ['chain', 'files', 'schema', 'steps'] },
  // The runtime exported TypeScript programs run on (bundled from src/runtime/index.ts by src/export/runtime-build.ts).
  runtime: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace', 'engine'] },
  export: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace', 'engine'] },
  // Every file that comes in (chain files, exported programs, other tools' flows, traces): one file per format + a registry.
  formats: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace'] },
  eval: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace', 'engine', 'inspect'] },
  // The BullMQ adapter (Node only: bullmq, ioredis, pg). app/ may not import it (see below).
  batch: { allow: ['eval', 'engine', 'chain', 'files', 'providers', 'steps', 'trace', 'schema', 'inspect'] },
  // `seamscope collect`, the OTLP/HTTP receiver (Node only: node:http, zlib, protobufjs). app/ may not import it (see below).
  collect: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace', 'formats', 'inspect'] },
  cli: { allow: ['chain', 'files', 'schema', 'providers', 'steps', 'trace', 'engine', 'inspect', 'export', 'formats', 'eval', 'batch', 'planner', 'collect'] },
  testing: { allow: ['*'] },
};

// The public entries app/ may import: each area's index.ts, plus a few declared heavier
// entries kept apart so that importing an index does not load them (measured on the app's
// first paint: `npx vite build --manifest`, gzip of the entry's static import closure):
// - chain/schema.ts: the zod schemas (module-level side effects; re-exported from the chain
//   index they made Rolldown split the first-paint chunk, +2.8 KiB gzip);
// - chain/parse.ts and chain/lint.ts (lint reads parse): the chain schema checks, loaded lazily;
// - chain/layout.ts: dagre, loaded with import();
// - chain/branch-edit.ts: labelled branches (the router's label prompt), used only by the canvas
//   chunk; through the chain index it sat on first paint with the store (0.9 KiB gzip);
// - providers/profiles.ts: the OpenAI, Anthropic and demo-model clients, loaded with import();
// - trace/otlp/index.ts: OTLP interop (its import parses embedded chains);
// - steps/egress.ts: re-exported from the steps index it cost +2.5 KiB gzip on first paint
//   (Rolldown's chunking, not its size);
// - steps/assembly-progress.ts: the replay's partial-delivery fold; through the steps index it
//   landed in the first load although only the lazily loaded replay uses it;
// - steps/model-prompt.ts and steps/dynamic-enum.ts: prompt assembly and section-id enums, for
//   the step panel's prompt estimate; re-exported from the steps index they were on first paint
//   (any module an index re-exports lands in the index's chunk once anything uses it).
// The production build fails when the first paint passes its budget (scripts/first-paint-budget.ts).
// Type-only imports of other modules are not allowed either: the indexes re-export the types.
const entries = {
  '*': ['index.ts'],
  chain: ['index.ts', 'schema.ts', 'parse.ts', 'lint.ts', 'layout.ts', 'branch-edit.ts'],
  providers: ['index.ts', 'profiles.ts'],
  trace: ['index.ts', 'otlp/index.ts'],
  steps: ['index.ts', 'egress.ts', 'assembly-progress.ts', 'model-prompt.ts', 'dynamic-enum.ts'],
};

// src/ is the headless core: it runs in Node (CLI, tests, exported code) and in the browser,
// so it may not reach for UI or browser-storage libraries, statically or through import().
const uiLibraries = '^(react|react-dom|@xyflow\\x2F.*|dexie|monaco-editor|zustand)(\\x2F.*)?$';

const area = (name) => ['area', { area: name }];
const anyArea = ['area', 'jitless'];
const layerRules = Object.entries(layers).flatMap(([from, { allow, types = [] }]) => [
  { from: [area(from)], allow: allow.includes('*') ? anyArea : [area(from), 'jitless', ...allow.map(area)] },
  ...(types.length ? [{ from: [area(from)], allow: types.map(area), importKind: 'type' }] : []),
]);
const boundarySettings = {
  'boundaries/include': ['src/**/*', 'app/**/*'],
  'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
  'boundaries/elements': [
    // Loaded first by the CLI and the analysis worker, before zod; any layer may import it.
    { type: 'jitless', pattern: 'src/zod-jitless.ts', mode: 'file' },
    { type: 'area', pattern: 'src/*', capture: ['area'] },
    { type: 'app', pattern: 'app' },
  ],
  'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
};

const noCodeFromData = [
  { selector: "CallExpression[callee.name='eval']", message: 'eval is banned: chain files and model output are data, never code.' },
  { selector: "NewExpression[callee.name='Function']", message: 'new Function is banned: chain files and model output are data, never code.' },
  { selector: "CallExpression[callee.name='Function']", message: 'Function() is banned: chain files and model output are data, never code.' },
  // `import { z }` binds zod's namespace object, locales and all: esbuild keeps ~550 KB more in the CLI bundle.
  {
    selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
    message: "Write import * as z from 'zod' (the named z import keeps every zod locale in the CLI bundle).",
  },
];

// ── A step kind lives in its definition (src/steps/<kind>.ts): nothing else compares a step's
// `kind` with a kind name, it asks the definition (produces, units, onFail, checks, lint…).
// The names are listed here because ESLint reads no TypeScript; a new kind adds its name.
// Field kinds, edge kinds, trace event and segment kinds are other `kind`s: only these names
// are matched. Exempt: src/steps (the definitions), tests and src/testing (fixtures name kinds),
// src/export (being rebuilt on the engine; its emitter table is keyed by kind until the
// emitters move into the definitions), and src/inspect/consumer-prompt.ts, whose segment kind
// 'template' shares a step kind's name.
const stepKindNames = ['model', 'map', 'reduce', 'retrieve', 'split', 'gate', 'router', 'output', 'abstain', 'escalate', 'webhook', 'template'];
const stepKindValue = `/^(${stepKindNames.join('|')})$/`;
const stepKindMessage = 'Do not compare a step kind with a kind name outside src/steps: ask the step definition from the registry (produces, units, onFail, checks, lint…).';
const kindMember = "MemberExpression[property.name='kind']";
const stepKindSyntax = [
  ...['left', 'right'].flatMap((side) => {
    const other = side === 'left' ? 'right' : 'left';
    return [
      { selector: `BinaryExpression[operator=/^[!=]==?$/][${side}.type='MemberExpression'][${side}.property.name='kind'][${other}.value=${stepKindValue}]`, message: stepKindMessage },
      { selector: `BinaryExpression[operator=/^[!=]==?$/][${side}.type='ChainExpression'][${side}.expression.property.name='kind'][${other}.value=${stepKindValue}]`, message: stepKindMessage },
    ];
  }),
  { selector: `SwitchStatement:has(> ${kindMember}.discriminant) > SwitchCase > Literal.test[value=${stepKindValue}]`, message: stepKindMessage },
  { selector: `SwitchStatement:has(> ChainExpression.discriminant > ${kindMember}) > SwitchCase > Literal.test[value=${stepKindValue}]`, message: stepKindMessage },
  { selector: `CallExpression[callee.property.name=/^(includes|has)$/][arguments.0.property.name='kind'] > MemberExpression.callee > ArrayExpression > Literal[value=${stepKindValue}]`, message: stepKindMessage },
];
const stepKindExempt = ['src/steps/**', 'src/testing/**', 'src/inspect/consumer-prompt.ts', '**/*.test.ts', '**/*.test.tsx'];

const srcSyntax = [...noCodeFromData,
  {
    selector: `ImportExpression[source.value=/${uiLibraries}/]`,
    message: 'src/ is the headless core: no UI or storage libraries, not even through import().',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'dist-cli', 'node_modules', 'test-results', 'playwright-report', 'public'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    rules: {
      'no-restricted-syntax': ['error', ...noCodeFromData],
      'no-implied-eval': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: stepKindExempt,
    rules: { 'no-restricted-syntax': ['error', ...noCodeFromData, ...stepKindSyntax] },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
    },
  },
  {
    // Selectors are pure reads of store state: no module they could call into (type imports
    // only), no lazy import, no timers, no storage. Results that take work to compute (the
    // open chain's problems and lint) are written into the store by a subscriber instead.
    files: ['app/stores/selectors.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['*'], allowTypeImports: true, message: 'Selectors are pure reads: type imports only (see app/designer/analysis-subscriber.ts).' }],
      }],
      'no-restricted-syntax': ['error', ...noCodeFromData, ...stepKindSyntax,
        { selector: 'ImportExpression', message: 'Selectors are pure reads: no import().' },
        { selector: "CallExpression[callee.name=/^(setTimeout|setInterval|queueMicrotask|requestAnimationFrame|requestIdleCallback|fetch|postMessage)$/]", message: 'Selectors are pure reads: they schedule and send nothing.' },
        { selector: "Identifier[name=/^(localStorage|sessionStorage|indexedDB|Worker)$/]", message: 'Selectors are pure reads: no storage, no workers.' },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'app/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: boundarySettings,
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'boundaries/element-types': ['error', { default: 'disallow', rules: layerRules }] },
  },
  {
    // Tests may import any area (fixtures, the engine, the mock server), never app/.
    files: ['src/**/*.test.ts'],
    rules: { 'boundaries/element-types': ['error', { default: 'disallow', rules: [{ from: ['area'], allow: anyArea }] }] },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    rules: {
      // Any area but src/batch and src/collect: the queue adapter (Redis, PostgreSQL drivers) and the OTLP receiver are Node only.
      'boundaries/element-types': ['error', { default: 'disallow', rules: [{ from: ['app'], allow: ['app', ...anyArea] }, { from: ['app'], disallow: [area('batch'), area('collect')] }] }],
      'boundaries/entry-point': ['error', {
        default: 'disallow',
        rules: [...Object.entries(entries).map(([name, allow]) => ({ target: [name === '*' ? 'area' : area(name)], allow })), { target: ['jitless'], allow: '*' }],
      }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: uiLibraries, message: 'src/ is the headless core: no UI or storage libraries (see DESIGN.md).' }],
      }],
      'no-restricted-syntax': ['error', ...srcSyntax],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: stepKindExempt,
    rules: { 'no-restricted-syntax': ['error', ...srcSyntax, ...stepKindSyntax] },
  },
);
