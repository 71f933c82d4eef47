import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { headerValueProblem, webhookRequestUrl } from './webhook.ts';
import { stepRegistry } from './index.ts';

/** A webhook's header values and URL must reach the receiver as the chain says, from the engine and from both exports. */
function hookChain(config: Record<string, unknown>) {
  return parseChain({
    format: 'seamscope.chain', version: 1, id: 'hook', name: 'Hook',
    inputs: [{ name: 'q', schema: { type: 'string' } }],
    steps: [{ id: 'send', kind: 'webhook', name: 'Send', config: { bindings: { value: 'inputs.q' }, url: 'http://127.0.0.1:9000/hook', ...config } }],
  }, stepRegistry);
}

describe('webhook header values', () => {
  it('refuses what fetch refuses or trims and urllib would send (line breaks, NUL, DEL, past U+00FF, spaces at an end)', () => {
    for (const value of ['a\nb', 'a\r\nX-Injected: 1', 'a\u0000b', 'a\u007fb', '\u001b[2J', 'emoji 😀', '\u2028', ' padded', 'padded\t']) {
      expect(headerValueProblem(value), JSON.stringify(value)).not.toBeNull();
    }
  });

  it('accepts printable Latin-1 text, with spaces and tabs inside, and the empty value', () => {
    for (const value of ['support', 'a b\tc', 'café', '"quoted" \'and\' `back`', '${x} {{x}} %s', '']) expect(headerValueProblem(value), JSON.stringify(value)).toBeNull();
  });

  it('a chain with such a value is refused at validate, with the header\'s path', () => {
    const parsed = hookChain({ headers: { 'x-team': 'ops\nX-Evil: 1' } });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]).toMatchObject({ path: '$.steps[0].config.headers["x-team"]', message: expect.stringContaining('U+000A') });
  });
});

describe('webhookRequestUrl', () => {
  it('is the URL as fetch sends it: percent-encoded, dot segments resolved, no fragment', () => {
    expect(webhookRequestUrl('http://127.0.0.1:9000/a b/../hook?q="x y"&r=é#frag ment')).toBe('http://127.0.0.1:9000/hook?q=%22x%20y%22&r=%C3%A9');
    expect(webhookRequestUrl('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000/');
    expect(webhookRequestUrl('http://example.com/hook')).toBe('http://example.com/hook');
  });
});
