import { describe, expect, it } from 'vitest';
import { ProviderError, scrubProviderError } from './errors.ts';
import { ANY_SHAPE, combineScrubbers, createScrubber, jsonTextIsClean, KEY_SHAPES, MAX_DEPTH, REDACTED, SHAPE_HINT, SHORTEST_SHAPE, shapeScrubber } from './scrub.ts';

const KEY = 'canary-Zq9xK2mW7vLp';

describe('scrubbing keys from what endpoints send back', () => {
  it('removes the configured key wherever it appears, also URL-encoded', () => {
    const scrub = createScrubber([`${KEY}/+`]);
    expect(scrub.text(`bad key ${KEY}/+ (${encodeURIComponent(`${KEY}/+`)})`)).toBe(`bad key ${REDACTED} (${REDACTED})`);
  });

  it('removes key shapes that are not the configured key', () => {
    const samples = [
      'Authorization: Bearer abc.def-ghi_123',
      'Incorrect API key provided: sk-proj-AbCdEf123456',
      'key sk-ant-api03-AbCdEf_123456 was refused',
      '{"x-api-key": "whatever-1234"}',
      'api_key=hunter2hunter2&x=1',
    ];
    for (const sample of samples) {
      const out = shapeScrubber.text(sample);
      expect(out).toContain(REDACTED);
      expect(out).not.toMatch(/abc\.def|AbCdEf|whatever-1234|hunter2/);
    }
    // Ordinary words survive.
    expect(shapeScrubber.text('The bearer of the ticket asked for a sketch of the api')).toBe('The bearer of the ticket asked for a sketch of the api');
  });

  it('the one-scan hint and the any-shape test let through every text a key shape would change', () => {
    const texts = [
      'BEARER abcdefgh', 'basic dXNlcjpwYXNz', 'Token 1234abcd', 'TOKEN\tzzzzzzzz', 'x-goog-api-key: AIzaSyA-123456', 'X-API-KEY = "longvalue"',
      'AUTHORIZATION:whatever', 'apikey=abcd1234', 'API-KEY: 12345678', 'sk-live123456', 'prefix SK-notakey', 'nothing to see here', 'ok',
      'prompt_tokens', 'completion_tokens', 'a token of thanks', 'the api answered', '{"authorization": "Bearer sk-proj-abcdefgh"}', 'tokens: 12',
    ];
    for (const text of texts) {
      const full = KEY_SHAPES.reduce((out, [re, replacement]) => out.replace(re, replacement), text);
      if (full !== text) {
        expect(SHAPE_HINT.test(text), text).toBe(true);
        expect(ANY_SHAPE.test(text), text).toBe(true);
      }
      expect(shapeScrubber.text(text)).toBe(full);
    }
  });

  it('copies an object only from its first change, keeping the entries before it', () => {
    const scrub = createScrubber([KEY]);
    const value = { first: 1, second: 'plain', third: `has ${KEY}`, fourth: ['x'] };
    const out = scrub.value(value) as Record<string, unknown>;
    expect(out).not.toBe(value);
    expect(Object.keys(out)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(out).toMatchObject({ first: 1, second: 'plain', third: `has ${REDACTED}` });
    expect(out.fourth).toBe(value.fourth);
  });

  it('walks JSON values, object keys included, and returns the same value when nothing changed', () => {
    const scrub = createScrubber([KEY]);
    const clean = { a: [1, 'two', { three: null }] };
    expect(scrub.value(clean)).toBe(clean);
    const dirty = { error: { message: `key ${KEY}` }, headers: [[`x-echo-${KEY}`, 'Bearer zzzzzzzz']] };
    expect(JSON.stringify(scrub.value(dirty))).not.toContain(KEY);
    expect(JSON.stringify(scrub.value(dirty))).not.toContain('zzzzzzzz');
    expect(dirty.error.message).toContain(KEY);
  });

  it('scrubs the shortest key and the shortest key shape, wherever they sit in a value', () => {
    const shortKey = 'k3y-42';
    const scrub = createScrubber([shortKey]);
    expect(scrub.keysOnly.text(shortKey)).toBe(REDACTED);
    const shortest = `sk-${'a'.repeat(SHORTEST_SHAPE - 3)}`;
    expect(scrub.text(shortest)).toBe(REDACTED);
    expect(shapeScrubber.text(shortest)).toBe(REDACTED);
    // One character fewer is no key shape.
    expect(shapeScrubber.text(shortest.slice(0, -1))).toBe(shortest.slice(0, -1));
    const list = ['a', 'b', shortKey, 'c', { [shortKey]: 1 }];
    const out = scrub.keysOnly.value(list);
    expect(out).toEqual(['a', 'b', REDACTED, 'c', { [REDACTED]: 1 }]);
    expect(list[2]).toBe(shortKey);
  });

  it('reads own keys only, in order, and keeps a "__proto__" key an own property', () => {
    const scrub = createScrubber([KEY]);
    const inherited = Object.create({ [KEY]: 'from the prototype' }) as Record<string, unknown>;
    inherited.own = 'plain';
    expect(scrub.value(inherited)).toBe(inherited);
    const parsed = JSON.parse(`{"__proto__": {"x": 1}, "b": "${KEY}"}`) as Record<string, unknown>;
    const out = scrub.value(parsed) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.b).toBe(REDACTED);
  });

  it('keysOnly leaves shapes alone (prompts stay as sent) but still removes the key', () => {
    const scrub = createScrubber([KEY]);
    expect(scrub.keysOnly.text(`sk-abcdefgh12 and ${KEY}`)).toBe(`sk-abcdefgh12 and ${REDACTED}`);
  });

  it('ignores keys too short to scrub safely, and combines several endpoints', () => {
    expect(createScrubber(['abc', undefined, '']).keysOnly.text('abc')).toBe('abc');
    const both = combineScrubbers([createScrubber([KEY]), createScrubber(['second-key-998877'])]);
    expect(both.text(`${KEY} second-key-998877`)).toBe(`${REDACTED} ${REDACTED}`);
    expect(both.keysOnly.keysOnly.text(`${KEY}`)).toBe(REDACTED);
  });

  it('scrubs a provider error and keeps what retries depend on', () => {
    const error = new ProviderError('rate_limited', `429: slow down, ${KEY}`, { status: 429, retryAfterMs: 1200, body: { error: { message: KEY } } });
    const clean = scrubProviderError(error, createScrubber([KEY]));
    expect(clean).toBeInstanceOf(ProviderError);
    expect({ code: clean.code, status: clean.status, retryable: clean.retryable, retryAfterMs: clean.retryAfterMs }).toEqual({ code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 1200 });
    expect(clean.message).toBe(`The endpoint is rate limiting requests: 429: slow down, ${REDACTED}`);
    expect(JSON.stringify(clean.body)).not.toContain(KEY);
  });

  it('a sealed answer is scrubbed once and passed through where a record carries it again', () => {
    const scrub = createScrubber([KEY]);
    const raw = scrub.sealed?.({ error: `echo ${KEY}`, detail: 'Bearer abcdefgh123' }) as Record<string, string>;
    expect(raw).toEqual({ error: `echo ${REDACTED}`, detail: `Bearer ${REDACTED}` });
    const event = { record: { rawResponse: raw, text: KEY } };
    const scrubbed = scrub.keysOnly.value(event);
    expect(scrubbed.record.rawResponse).toBe(raw);
    expect(scrubbed.record.text).toBe(REDACTED);
    // Not walked a second time: its properties are read once, when it is sealed.
    let reads = 0;
    const counted = Object.defineProperty({}, 'content', { enumerable: true, get: () => (reads++, 'an answer') });
    const sealedCounted = scrub.sealed?.(counted);
    expect(sealedCounted).toBe(counted);
    scrub.keysOnly.value({ record: { rawResponse: sealedCounted } });
    scrub.value({ record: { rawResponse: sealedCounted } });
    expect(reads).toBe(1);
    // Sealed by one endpoint's scrubber means nothing to another's: it still walks the value.
    const other = createScrubber(['other-key-445566']);
    const sealedElsewhere = other.sealed?.({ a: 'x' }) as Record<string, string>;
    sealedElsewhere.a = KEY;
    expect(scrub.keysOnly.value({ r: sealedElsewhere }).r.a).toBe(REDACTED);
    // The keys-only scrubber's seal does not stand for the full one: shapes are still removed.
    const body = scrub.keysOnly.sealed?.({ auth: 'Bearer abcdefgh123' });
    expect(scrub.value({ body }).body).toEqual({ auth: `Bearer ${REDACTED}` });
  });

  it('survives a value nested deeper than the stack would', () => {
    let deep: unknown = KEY;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(JSON.stringify(createScrubber([KEY]).value(deep))).not.toContain(KEY);
  });

  it('a JSON text it calls clean parses to a value the walk leaves as it is, whatever the escapes', () => {
    const keys = [KEY, 'abc-def_ghi'];
    const scrub = createScrubber(keys);
    // A key an escape can make (`\/` is `/`) is never looked for in the text: no text is clean then.
    expect(jsonTextIsClean('{"a":"b"}', ['abc/def+ghi=='], true)).toBe(false);
    // Pieces a text is made of: key shapes written plainly and through every JSON escape, hint words
    // that hold no key, the keys themselves (one with a slash, which an escape can make), whitespace of all kinds.
    const pieces = [
      'Bearer abcdefgh', 'Bearer\\tabcdefgh', 'Token\\nzzzzzzzz', 'basic\u00a0dXNlcjpwYXNz', 'Token\u2028abcd1234', 'sk-live123456', '\\u0073k-live123456',
      's\\u006b-live123456', 'x-api-key: abcd1234', 'api\\u005fkey=abcd1234', 'authorization:whatever', 'AUTHOR\\u0049ZATION:whatever',
      KEY, KEY.replace('q', '\\u0071'), 'abc-def_ghi', 'abc-def\\u005fghi', 'prompt_tokens', 'completion_tokens', 'the api answered', 'a token', 'tokens\\n',
      'plain words', '\\"quoted\\"', 'line\\nbreak', 'back\\\\slash', 'sk', '-', 'Bearer', '\\t', ' ',
    ];
    let seed = 7;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return pieces[seed % pieces.length] as string;
    };
    let clean = 0;
    for (let i = 0; i < 3000; i++) {
      const a = Array.from({ length: 1 + (i % 4) }, pick).join('');
      const b = Array.from({ length: 1 + (i % 3) }, pick).join('');
      const text = `{"choices":[{"message":{"content":"${a}"}}],"${b}":1,"usage":{"prompt_tokens":3}}`;
      const value = JSON.parse(text) as object;
      if (!jsonTextIsClean(text, keys, true)) continue;
      clean++;
      expect(scrub.value(value), text).toBe(value);
    }
    // Both answers occur: the test would not pass by calling every text unclean.
    expect(clean).toBeGreaterThan(100);
    expect(clean).toBeLessThan(3000);
  });

  it('seals a clean answer body so the walk passes it through, and leaves one it cannot vouch for to the walk', () => {
    const scrub = createScrubber([KEY]);
    const clean = '{"id":"x","choices":[{"message":{"content":"fine"}}],"usage":{"prompt_tokens":3,"completion_tokens":1}}';
    const value = JSON.parse(clean) as object;
    expect(scrub.sealJsonText?.(clean, value)).toBe(true);
    expect(scrub.sealed?.(value)).toBe(value);
    const escaped = `{"content":"${KEY.replace('q', '\\u0071')}"}`;
    const held = JSON.parse(escaped) as object;
    expect(scrub.sealJsonText?.(escaped, held)).toBe(false);
    expect(JSON.stringify(scrub.sealed?.(held))).not.toContain(KEY);
    // Deeper than the walk goes: not vouched for (the walk replaces what is past MAX_DEPTH).
    const deep = `${'['.repeat(MAX_DEPTH + 1)}1${']'.repeat(MAX_DEPTH + 1)}`;
    expect(jsonTextIsClean(deep, [KEY], true)).toBe(false);
    // Brackets of both kinds count together, wherever they stand: one over the depth is refused, at it vouched for.
    const half = MAX_DEPTH / 2;
    const mixed = (braces: number) => `${'{"a":'.repeat(braces)}${'['.repeat(MAX_DEPTH - half)}1${']'.repeat(MAX_DEPTH - half)}${'}'.repeat(braces)}`;
    expect(jsonTextIsClean(mixed(half), [KEY], true)).toBe(true);
    expect(jsonTextIsClean(mixed(half + 1), [KEY], true)).toBe(false);
  });
});
