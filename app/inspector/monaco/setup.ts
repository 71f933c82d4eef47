import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import { JSON_SCHEMA_META_URI, jsonSchemaMetaSchema } from './meta-schema.ts';

/**
 * Monaco, its workers and JSON settings. Only reached through import() (via the lazy
 * JsonEditor), so the editor never weighs on the first paint. Without getWorker Monaco
 * silently runs the language service on the main thread.
 */
self.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  trailingCommas: 'error',
  enableSchemaRequest: false,
  schemaValidation: 'error',
  schemas: [{ uri: JSON_SCHEMA_META_URI, fileMatch: ['*.schema.json'], schema: jsonSchemaMetaSchema }],
});

export { monaco };
