import { describe, expect, it } from 'vitest';
import { MAX_FOLDER_FILES, readFlowFolder } from './flow-folder.ts';

const file = (path: string, text: string) => ({ path, file: new File([text], path.split('/').pop() as string) });

describe('a flow brought with its folder', () => {
  it('reads the files beside flow.dag.yaml, keyed from its folder, and nothing outside it', async () => {
    const folder = await readFlowFolder([
      file('picked/secret.jinja2', 'OUTSIDE'),
      file('picked/flow/flow.dag.yaml', 'nodes: []'),
      file('picked/flow/ask.jinja2', 'Ask {{ q }}'),
      file('picked/flow/prompts/sys.jinja2', 'System'),
      file('picked/flow/tool.py', 'import os'),
    ]);
    if (!folder.ok) throw new Error(folder.message);
    expect(folder.fileName).toBe('picked/flow/flow.dag.yaml');
    expect(folder.readSibling('ask.jinja2')).toBe('Ask {{ q }}');
    expect(folder.readSibling('./prompts/sys.jinja2')).toBe('System');
    expect(folder.readSibling('../secret.jinja2')).toEqual({ error: expect.stringContaining('climbs out of the folder') });
    expect(folder.readSibling('/picked/secret.jinja2')).toEqual({ error: expect.stringContaining('absolute path') });
    expect(folder.readSibling('C:/secret.jinja2')).toEqual({ error: expect.stringContaining('drive letter') });
    expect(folder.readSibling('secret.jinja2')).toEqual({ error: 'it is not in the folder that was brought' });
    // Code beside a flow is never read, even when the flow names it.
    expect(folder.readSibling('tool.py')).toEqual({ error: 'it is code or a binary file, which an import never reads' });
    expect([...folder.siblings.keys()].sort()).toEqual(['ask.jinja2', 'prompts/sys.jinja2']);
  });

  it('refuses what holds no flow, two flows side by side, too many files, and reads no file past its size', async () => {
    expect(await readFlowFolder([file('a.chain.json', '{}'), file('b.chain.json', '{}')])).toEqual({ ok: false, message: expect.stringContaining('none of the 2 files is a flow.dag.yaml') });
    expect(await readFlowFolder([file('x/a/flow.dag.yaml', ''), file('x/b/flow.dag.yaml', '')])).toEqual({ ok: false, message: expect.stringContaining('2 flows were brought') });
    const many = Array.from({ length: MAX_FOLDER_FILES + 1 }, (_, i) => file(`f/${i}.txt`, ''));
    expect(await readFlowFolder(many)).toEqual({ ok: false, message: expect.stringContaining(`at most ${MAX_FOLDER_FILES}`) });
    const big = await readFlowFolder([file('flow.dag.yaml', ''), file('data.jsonl', 'x'.repeat(2 * 1024 * 1024 + 1))]);
    if (!big.ok) throw new Error(big.message);
    expect(big.readSibling('data.jsonl')).toEqual({ error: expect.stringContaining('is 2.0 MB; a file beside a flow is read up to 2 MB') });
  });
});
