import { describe, expect, it } from 'vitest';
import { promptTemplateOf } from './prompt-template.ts';

/**
 * The recorded prompt template read from span attributes that come from a file: the shapes
 * OpenInference writes (variables as a JSON string), and what a hostile file may put there.
 */
describe('promptTemplateOf', () => {
  it('reads OpenInference’s template, its JSON-string variables and its version', () => {
    expect(promptTemplateOf({ 'llm.prompt_template.template': 'Hello {{name}}', 'llm.prompt_template.variables': '{"name":"world","n":3}', 'llm.prompt_template.version': 'v1' }))
      .toEqual({ template: 'Hello {{name}}', variables: { name: 'world', n: '3' }, version: 'v1' });
  });

  it('is absent when no template was recorded, or when it is not text', () => {
    expect(promptTemplateOf({ 'llm.prompt_template.variables': '{"name":"world"}' })).toBeUndefined();
    expect(promptTemplateOf({ 'llm.prompt_template.template': 42 })).toBeUndefined();
    expect(promptTemplateOf({ 'llm.prompt_template.template': '' })).toBeUndefined();
  });

  it('keeps the template but no variables when they are not a JSON object', () => {
    expect(promptTemplateOf({ 'llm.prompt_template.template': 'x {y}', 'llm.prompt_template.variables': '{not json' })).toEqual({ template: 'x {y}', variables: {} });
    expect(promptTemplateOf({ 'llm.prompt_template.template': 'x {y}', 'llm.prompt_template.variables': '["a"]' })).toEqual({ template: 'x {y}', variables: {} });
  });

  it('drops names that are not identifiers or that reach a prototype', () => {
    // Written as text: an object literal's __proto__ would set its prototype, not a key.
    const read = promptTemplateOf({ 'llm.prompt_template.template': 't', 'llm.prompt_template.variables': '{"constructor":"c","prototype":"p","a b":"x","ok":"y"}' });
    expect(read?.variables).toEqual({ ok: 'y' });
    // The trace reader refuses a __proto__ key in attribute JSON outright: no variables at all.
    expect(promptTemplateOf({ 'llm.prompt_template.template': 't', 'llm.prompt_template.variables': '{"__proto__":{"x":1},"ok":"y"}' })?.variables).toEqual({});
    expect(Object.getPrototypeOf(read?.variables)).toBe(Object.prototype);
  });

  it('caps the sizes it keeps', () => {
    expect(promptTemplateOf({ 'llm.prompt_template.template': 't'.repeat(200_001) })).toBeUndefined();
    const variables = promptTemplateOf({ 'llm.prompt_template.template': 't', 'llm.prompt_template.variables': { ok: 'y', big: 'z'.repeat(200_001) } })?.variables;
    expect(variables).toEqual({ ok: 'y' });
  });
});
