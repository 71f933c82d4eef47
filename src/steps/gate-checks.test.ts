import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCitations, checkIdSet, checkNumbers, checkQuotes, checkRule, statedNumbers } from './gate-checks.ts';

const statute = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');
const quote = 'by not later than the end of the 180-day period beginning on the date the individual receives notice of the redetermination';

describe('gate checks', () => {
  it('quote containment: verbatim, whitespace-normalised, and inside the named section', () => {
    const ok = { relevant_sections: [{ section_id: '(b)(1)(D)(i)', quote: quote.replace(/ the /g, '\n the ') }] };
    expect(checkQuotes(ok, statute, 'relevant_sections[*].quote', 'section_id')).toEqual([]);
    const wrongSection = { relevant_sections: [{ section_id: '(a)(3)(C)(i)', quote }] };
    expect(checkQuotes(wrongSection, statute, 'relevant_sections[*].quote', 'section_id')[0]).toContain('not in the section it names ((a)(3)(C)(i))');
    const invented = { relevant_sections: [{ section_id: '(z)(9)', quote: 'within 180 calendar days of receiving written notice' }] };
    expect(checkQuotes(invented, statute, 'relevant_sections[*].quote', 'section_id')[0]).toContain('is not in the source');
    expect(checkQuotes({ relevant_sections: [{ section_id: '(z)(9)', quote }] }, statute, 'relevant_sections[*].quote', 'section_id')[0]).toContain('does not have');
  });

  it('id-set equality lists missing, extra and repeated ids', () => {
    expect(checkIdSet(['1.1', '1.2'], ['1.1', '1.2'])).toEqual([]);
    expect(checkIdSet(['1.1', '1.3', '1.3'], ['1.1', '1.2'])).toEqual(['expected 2, returned 3, missing 1, extra 1, repeated 1', 'missing ids: "1.2"', 'extra ids: "1.3"', 'repeated ids: "1.3"']);
    expect(checkIdSet(['1', 4.2], ['1', '4.2', '7'])).toEqual(['expected 3, returned 2, missing 1, extra 0', 'missing ids: "7"']);
    expect(checkIdSet([2, 1], ['1', '2'])).toEqual([]);
  });

  it('citations: phantom citation, uncited claim, top chunk uncited', () => {
    const claims = [{ text: 'Appeals take 180 days', citations: ['c2'] }, { text: 'Urgent ones 72 hours', citations: [] }, { text: 'x', citations: ['c9'] }];
    expect(checkCitations(claims, ['c1', 'c2', 'c3'], { citationsField: 'citations', textField: 'text', requireTopCited: true })).toEqual([
      'uncited claim: "Urgent ones 72 hours"',
      'phantom citation: "x" cites c9, which was not retrieved',
      'top chunk uncited: c1 ranked first but no claim cites it',
    ]);
  });

  it('number consistency: numbers stated in an answer appear in the section it cites', () => {
    expect(checkNumbers('You have 180 days (§ 1395ff(b)(1)(D)(i)).', ['(b)(1)(D)(i)'], statute)).toEqual([]);
    expect(checkNumbers('You have 90 days.', ['(b)(1)(D)(i)'], statute)).toEqual(['states 90, which no cited section ((b)(1)(D)(i)) contains']);
    expect(statedNumbers('paragraph (2) says $1,500 within 60 days under § 1395w–22')).toEqual(['1500', '60']);
  });

  it('custom rules are JSON Logic data; the method operation that reaches JavaScript is gone', () => {
    expect(checkRule({ '<=': [{ var: 'value.items.length' }, 4] }, { value: { items: [1, 2] } }, 'at most 4 items')).toEqual([]);
    expect(checkRule({ '==': [{ var: 'value.flag' }, false] }, { value: { flag: true } }, 'flag must be false')).toEqual(['flag must be false']);
    const escape = { method: [{ method: ['x', 'constructor'] }, 'constructor', ['globalThis.pwned = 1']] };
    expect(checkRule(escape, { value: {} }, 'never')[0]).toContain('could not be applied');
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });

  it('a rule\'s var reads own properties only: a missing "constructor" is null, not Object', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      expect(checkRule({ '==': [{ var: `value.${name}` }, null] }, { value: {} }, `${name} missing`), name).toEqual([]);
      expect(checkRule({ '==': [{ var: `value.${name}` }, 'set'] }, { value: JSON.parse(`{"${name}": "set"}`) }, `${name} set`), name).toEqual([]);
      expect(checkRule({ '!': { missing: [`value.${name}`] } }, { value: {} }, 'x')).toEqual(['x']);
    }
    expect(checkRule({ '==': [{ var: 'value.name.length' }, 3] }, { value: { name: 'abc' } }, 'length')).toEqual([]);
    expect(checkRule({ '==': [{ var: 'value.1' }, 'b'] }, { value: ['a', 'b'] }, 'index')).toEqual([]);
    expect(checkRule({ '==': [{ var: ['value.nothing', 'fallback'] }, 'fallback'] }, { value: {} }, 'fallback')).toEqual([]);
  });
});
