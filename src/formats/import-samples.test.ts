import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { acceptedFileTypes, formatOf, importChainSource } from './index.ts';

/**
 * Every flow file in src/testing/import-samples (real files from the tools' public repositories;
 * see its README) and what it comes to: imported and run on the demo model, or refused with the
 * nodes named. A file added there without a line here fails the first test.
 */
const ROOT = fileURLToPath(new URL('../testing/import-samples/', import.meta.url));

type Expected = { format: string } & ({ runs: true; steps: number } | { refused: RegExp[] });

const expected: Record<string, Expected> = {
  'langflow/Basic_Prompting.json': { format: 'langflow', runs: true, steps: 2 },
  'langflow/Basic_Prompt_Chaining.json': { format: 'langflow', runs: true, steps: 4 },
  'langflow/Financial_Report_Parser.json': { format: 'langflow', runs: true, steps: 3 },
  // Hand-written (see its description): the older export's LLMChain with a PromptTemplate, ChatOpenAI and a memory.
  'langflow/hand-written-Legacy_LLMChain_Memory.json': { format: 'langflow', runs: true, steps: 2 },
  'langflow/Research_Translation_Loop.json': { format: 'langflow', refused: [/"arXiv" \(ArXivComponent\)/, /"Loop" \(LoopComponent\)/] },
  'flowise/chatflows-Prompt_Chaining.json': { format: 'flowise', runs: true, steps: 3 },
  'flowise/agentflowsv2-Structured_Output.json': { format: 'flowise', runs: true, steps: 2 },
  // Hand-written (see each description): a Few Shot Prompt Template with a List Output Parser; a Multi Prompt Chain.
  'flowise/hand-written-chatflows-Few_Shot_List_Parser.json': { format: 'flowise', runs: true, steps: 2 },
  'flowise/hand-written-chatflows-Multi_Prompt_Chain.json': { format: 'flowise', runs: true, steps: 10 },
  'flowise/agentflowsv2-Iterations.json': { format: 'flowise', refused: [/\(iterationAgentflow\)/, /\(agentAgentflow\)/] },
  'flowise/agentflowsv2-Supervisor_Worker.json': { format: 'flowise', refused: [/\(conditionAgentAgentflow\)|\(conditionAgentflow\)/, /\(loopAgentflow\)/, /\(agentAgentflow\)/] },
  'n8n/Gmail-AI-Auto-Responder-Create-Draft-Replies-to-incoming-emails.json': { format: 'n8n', runs: true, steps: 5 },
  'n8n/Detect-hallucinations-using-specialised-Ollama-model-bespoke-minicheck.json': { format: 'n8n', runs: true, steps: 4 },
  // Only the agent is refused: its If on code ("Last Message is Not Bot") now routes on a chain input holding the condition's value.
  'n8n/Automate-Customer-Support-Issue-Resolution-using-AI-Text-Classifier.json': { format: 'n8n', refused: [/^\$\.nodes\[\d+\] n8n node "KnowledgeBase Agent" \(agent\) is an agent that calls tools \("Find Simlar Issues", "Query KnowledgeBase"\); a chain here runs no tools$/] },
  // Hand-written (see its meta.note): Information Extractor → Switch → Sentiment Analysis → Basic LLM Chains.
  'n8n/hand-written-Ticket-Triage-Extractor-Switch-Sentiment.json': { format: 'n8n', runs: true, steps: 11 },
  'n8n/AI-Data-Extraction-with-Dynamic-Prompts-and-Airtable.json': { format: 'n8n', refused: [/in a loop of connections through "Loop Over Items" \(splitInBatches\) that also runs .*"Update Row" \(airtable\), "Get File Data" \(httpRequest\) for each item/, /"Generate Field Value1" is in a loop of connections through "Loop Over Items1" \(splitInBatches\) that also runs .*"Fields to Update" \(code\) for each item; a chain runs each step once, and a map step fans out model calls only/] },
  'dify/LanguageConsistencyChecker.yml': { format: 'dify', refused: [/"英文" \(tool\) calls a tool/, /"处理中文" \(code\) runs code, which an import never runs/] },
  // The knowledge base is not in the file; the first llm node also holds a conversation (an assistant turn between two user messages).
  'dify/intent-routing.yml': { format: 'dify', refused: [/"知识检索" \(knowledge-retrieval\) searches a Dify knowledge base/, /"意图向量机" \(llm\) has assistant messages/] },
  // Its if-else asks whether an optional input is empty: a router with a route on an empty value.
  'dify/translation_workflow.yml': { format: 'dify', runs: true, steps: 8 },
  'dify/whole-book-translation-iteration.yml': { format: 'dify', refused: [/"代码执行" \(code\)/, /"迭代" \(iteration\): its body is "识别专有名词" \(llm\), "直接翻译" \(llm\), "识别问题" \(llm\), "意译" \(llm\); a map step runs one model call per item/, /"模板" \(template-transform\): its template cannot be a Seamscope template: it uses Jinja beyond \{\{ var \}\}: \{\{ translated_text \| join\(' '\) \}\} is a filter over values known only at run time/] },
  // Every Prompt flow sample from Prompt flow's repository computes something in Python, and only the
  // python nodes (and one prompt with an assistant turn) are named: activate conditions, variants
  // and Jinja loops import (promptflow.test.ts stands each python node in by an input and runs them).
  'promptflow/conditional-flow-for-switch/flow.dag.yaml': { format: 'promptflow', refused: [/"class_check" \(python\) runs Python code/, /"order_search" \(python\)/, /"product_info" \(python\)/, /"product_recommendation" \(python\)/, /"generate_response" \(python\)/] },
  'promptflow/eval-qna-rag-metrics/flow.dag.yaml': { format: 'promptflow', refused: [/"concat_scores" \(python\)/, /"validate_input" \(python\)/, /"gpt_relevance" \(llm\): its prompt rag_generation_prompt\.jinja2 has the messages system, user, assistant/] },
  'promptflow/maths-to-code/flow.dag.yaml': { format: 'promptflow', refused: [/"code_refine" \(python\)/, /"math_example" \(python\)/, /"final_code_execution" \(python\)/] },
  'promptflow/web-classification/flow.dag.yaml': { format: 'promptflow', refused: [/"fetch_text_content_from_url" \(python\)/, /"prepare_examples" \(python\)/, /"convert_to_dict" \(python\)/] },
  'promptflow/support-reply/flow.dag.yaml': { format: 'promptflow', runs: true, steps: 6 },
  'promptfoo/getting-started/promptfooconfig.yaml': { format: 'promptfoo', runs: true, steps: 2 },
  'promptfoo/json-output/promptfooconfig.yaml': { format: 'promptfoo', runs: true, steps: 2 },
  'promptfoo/multiple-turn-conversation/promptfooconfig.yaml': { format: 'promptfoo', refused: [/^\$\.prompts\[0\] \(prompt\.json\) the prompt "multi-turn-conversation" cannot be a Seamscope template: it uses Nunjucks beyond \{\{ var \}\}/] },
  // Hand-written (see its header): prompts and tests in files beside the config, an llm-rubric.
  'promptfoo/rubric-and-files/promptfooconfig.yaml': { format: 'promptfoo', runs: true, steps: 2 },
  // No main graph is set, so its first graph ("* Initial Chat") is imported, and refused; rivet.test.ts makes each other graph the main one.
  'rivet/ironclad-rivet-example-chat.rivet-project': { format: 'rivet', refused: [/"Subgraph 1" \(subGraph\) runs the graph "Simple Reply"/, /"Match" \(match\) has no counterpart/, /"If 1" \(if\)/, /"Coalesce" \(coalesce\)/, /"Extract Regex" \(extractRegex\)/] },
};

/**
 * The files a person would pick to import. A Prompt flow or promptfoo folder's other files (its
 * Jinja prompts, data.jsonl, prompt.json, prompts.txt, tests.yaml, run settings, README) are read only through the flow
 * file, from the flow's own folder.
 */
function flowFiles(dir = ''): string[] {
  return readdirSync(ROOT + dir, { withFileTypes: true }).flatMap((entry) => {
    const path = dir + entry.name;
    if (entry.isDirectory()) return flowFiles(`${path}/`);
    if (dir === '' || /\.(jinja2|jsonl|md|txt)$|(^|\/)(run|run_evaluation)\.yml$|\/prompt\.json$|(^|\/)promptfoo\/[^/]+\/tests\.yaml$|\/\.promptflow\//.test(path)) return [];
    return [path];
  });
}

describe('every import sample, as a person would bring it', () => {
  it('each file has its expectation here, and each expectation its file', () => {
    expect(flowFiles().sort()).toEqual(Object.keys(expected).sort());
  });

  it('the Library\'s file picker offers every sample\'s ending (.json, .yaml, .yml, .rivet-project)', () => {
    const offered = acceptedFileTypes.split(',');
    for (const path of Object.keys(expected)) expect(offered, path).toContain(path.slice(path.lastIndexOf('.')));
  });

  for (const [path, want] of Object.entries(expected)) {
    it(`${path}: ${'runs' in want ? 'imports and runs on the demo model' : 'is refused, naming why'}`, async () => {
      const text = readFileSync(ROOT + path, 'utf8');
      const name = path.split('/').pop() as string;
      expect(formatOf(text, name).id).toBe(want.format);
      const folder = ROOT + path.slice(0, path.lastIndexOf('/') + 1);
      // The flow's own folder only, as the CLI reads it (a sample names no file outside it).
      const result = importChainSource(text, { fileName: name, readSibling: (file) => (/^[\w.-]+$/.test(file) ? readFileSync(folder + file, 'utf8') : { error: 'outside the folder' }) });
      if ('refused' in want) {
        const messages = result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`);
        for (const pattern of want.refused) expect(messages, path).toContainEqual(expect.stringMatching(pattern));
        return;
      }
      if (!result.ok) throw new Error(`${path}: ${JSON.stringify(result.problems)}`);
      expect(result.chain.steps.length).toBe(want.steps);
      // Every import from another tool says what it kept, changed and dropped, and keeps it.
      expect(result.report?.kept.length).toBeGreaterThan(0);
      expect(result.chain.meta?.importReport).toEqual(result.report);
      const inputs = Object.fromEntries(result.chain.inputs.map((i) => [i.name, i.example ?? 'In 2023 the appeal was filed within 180 days; the reply is due in 60 days.']));
      const meta = await runChain({
        chain: result.chain, inputs, provider: createDemoProvider(),
        model: { name: 'demo', maxOutputTokens: 4096, structuredOutput: true }, repo: createMemoryRunRepository(),
      });
      expect(meta.status, path).toBe('succeeded');
    });
  }
});
