import { defineChainFormat, type ChainFormat, type SniffInput } from './format.ts';

/**
 * Files of tools that write YAML: Dify DSL, Prompt flow (`flow.dag.yaml`), promptfoo configs and
 * Rivet projects. They are recognised, so a person is told what the file is and why it was not
 * read, rather than that it is "not a chain file". Reading them needs a YAML parser held to the
 * JSON files' limits (size, depth, aliases, duplicate keys, no custom tags); this build has none
 * (the `yaml` package is not a dependency), so each is refused and nothing is stored.
 */
const isYamlName = (name: string | undefined) => /\.(ya?ml|rivet-project)$/i.test(name ?? '');
const head = (file: SniffInput) => file.text.slice(0, 65_536);

function yamlTool(id: string, title: string, extensions: string[], claims: (file: SniffInput) => boolean): ChainFormat {
  return defineChainFormat<null>({
    id, title, extensions,
    sniff: (file) => (isYamlName(file.name) && claims(file) ? { value: null } : null),
    toChain: () => ({
      ok: false,
      problems: [{ path: '$', message: `this is a ${title} file, which is YAML: this build of Seamscope has no YAML reader (it needs the "yaml" package, read under the same limits as JSON files), so nothing in it was read and nothing was stored` }],
    }),
  });
}

export const difyFormat = yamlTool('dify', 'Dify DSL', ['.yml', '.yaml'], (f) => /^kind:\s*app\s*$/m.test(head(f)) || (/^app:\s*$/m.test(head(f)) && /^workflow:\s*$/m.test(head(f))));
export const promptflowFormat = yamlTool('promptflow', 'Prompt flow', ['.yaml'], (f) => /(^|[\\/])flow\.dag\.ya?ml$/i.test(f.name ?? '') || (/^nodes:\s*$/m.test(head(f)) && /^\s+type:\s*(llm|python|prompt)\s*$/m.test(head(f))));
export const promptfooFormat = yamlTool('promptfoo', 'promptfoo config', ['.yaml'], (f) => /promptfooconfig\.ya?ml$/i.test(f.name ?? '') || (/^prompts:\s*/m.test(head(f)) && /^(tests|providers):\s*/m.test(head(f))));
export const rivetFormat = yamlTool('rivet', 'Rivet project', ['.rivet-project'], (f) => /\.rivet-project$/i.test(f.name ?? '') || /^version:\s*4\s*$/m.test(head(f)));
