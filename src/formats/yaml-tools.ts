import { parseStrictYaml } from '../files/strict-yaml.ts';
import { difyToChain } from './dify.ts';
import { promptflowToChain } from './promptflow.ts';
import { promptflowToSuite } from './promptflow-data.ts';
import { promptfooToChain, promptfooToSuite } from './promptfoo.ts';
import { rivetToChain } from './rivet.ts';
import { defineChainFormat, type ChainFormat, type ChainFormatContext, type SniffInput, type ToChainResult, type ToSuiteResult } from './format.ts';

/**
 * Files of tools that write YAML: Dify DSL, Prompt flow (`flow.dag.yaml`), promptfoo configs and
 * Rivet projects. Each is recognised by its name and the head of its text (cheap, no parse), then
 * read with the strict YAML reader (size, depth, aliases, duplicate keys, no tags: the JSON
 * files' limits) and handed to that tool's importer. A tool without an importer yet is refused
 * by name after its file is read, so a person learns what the file is, that it is well formed,
 * and that nothing was stored.
 */
const isYamlName = (name: string | undefined) => /\.(ya?ml|rivet-project)$/i.test(name ?? '');
const head = (file: SniffInput) => file.text.slice(0, 65_536);

/** What a YAML tool's importer is given: the file's value, its name and the registry. */
export type YamlImporter = (value: unknown, ctx: ChainFormatContext) => ToChainResult;

const notBuilt = (title: string): YamlImporter => () => ({
  ok: false,
  problems: [{ path: '$', message: `this is a ${title} file: it was read, but this build of Seamscope does not import ${title} files yet, so nothing was stored` }],
});

export function yamlTool(id: string, title: string, extensions: string[], claims: (file: SniffInput) => boolean, importer: YamlImporter = notBuilt(title), suite?: (value: unknown, ctx: ChainFormatContext) => ToSuiteResult): ChainFormat {
  const read = (text: string, ctx: ChainFormatContext) => {
    const result = parseStrictYaml(text, ctx.fileName !== undefined ? { fileName: ctx.fileName } : {});
    return result.ok ? result : { ok: false as const, problems: [{ path: '$', message: `this ${title} file is not read: ${result.message}` }] };
  };
  return defineChainFormat<string>({
    id, title, extensions,
    sniff: (file) => (isYamlName(file.name) && claims(file) ? { value: file.text } : null),
    toChain: (text, ctx) => {
      const value = read(text, ctx);
      return value.ok ? importer(value.value, ctx) : value;
    },
    ...(suite ? {
      toSuite: (text: string, ctx: ChainFormatContext) => {
        const value = read(text, ctx);
        return value.ok ? suite(value.value, ctx) : value;
      },
    } : {}),
  });
}

export const difyFormat = yamlTool('dify', 'Dify DSL', ['.yml', '.yaml'], (f) => /^kind:\s*app\s*$/m.test(head(f)) || (/^app:\s*$/m.test(head(f)) && /^workflow:\s*$/m.test(head(f))), difyToChain);
export const promptflowFormat = yamlTool('promptflow', 'Prompt flow', ['.yaml'], (f) => /(^|[\\/])flow\.dag\.ya?ml$/i.test(f.name ?? '') || (/^nodes:\s*$/m.test(head(f)) && /^\s+type:\s*(llm|python|prompt)\s*$/m.test(head(f))), promptflowToChain, promptflowToSuite);
export const promptfooFormat = yamlTool('promptfoo', 'promptfoo config', ['.yaml'], (f) => /promptfooconfig\.ya?ml$/i.test(f.name ?? '') || (/^prompts:\s*/m.test(head(f)) && /^(tests|providers):\s*/m.test(head(f))), promptfooToChain, promptfooToSuite);
export const rivetFormat = yamlTool('rivet', 'Rivet project', ['.rivet-project'], (f) => /\.rivet-project$/i.test(f.name ?? '') || /^version:\s*4\s*$/m.test(head(f)), rivetToChain);
