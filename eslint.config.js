import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import tseslint from 'typescript-eslint';

// src/ is the headless core: it runs in Node (CLI, tests, exported code) and in the browser,
// so it may not reach for UI or browser-storage libraries, statically or through import().
const uiLibraries = '^(react|react-dom|@xyflow\\x2F.*|dexie|monaco-editor|zustand)(\\x2F.*)?$';

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
      'no-restricted-syntax': ['error', ...noCodeFromData,
        { selector: 'ImportExpression', message: 'Selectors are pure reads: no import().' },
        { selector: "CallExpression[callee.name=/^(setTimeout|setInterval|queueMicrotask|requestAnimationFrame|requestIdleCallback|fetch|postMessage)$/]", message: 'Selectors are pure reads: they schedule and send nothing.' },
        { selector: "Identifier[name=/^(localStorage|sessionStorage|indexedDB|Worker)$/]", message: 'Selectors are pure reads: no storage, no workers.' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: uiLibraries, message: 'src/ is the headless core: no UI or storage libraries (see DESIGN.md).' }],
      }],
      'no-restricted-syntax': ['error', ...noCodeFromData,
        {
          selector: `ImportExpression[source.value=/${uiLibraries}/]`,
          message: 'src/ is the headless core: no UI or storage libraries, not even through import().',
        },
      ],
    },
  },
);
