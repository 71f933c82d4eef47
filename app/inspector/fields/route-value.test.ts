import { describe, expect, it } from 'vitest';
import { parseRouteValue, routeValueText } from './route-value.ts';

describe('route values as typed in the routes table', () => {
  it('reads JSON scalars as JSON and anything else as a string', () => {
    expect(parseRouteValue('legal')).toBe('legal');
    expect(parseRouteValue('true')).toBe(true);
    expect(parseRouteValue(' 3 ')).toBe(3);
    expect(parseRouteValue('null')).toBeNull();
    expect(parseRouteValue('"true"')).toBe('true');
    expect(parseRouteValue('{"a":1}')).toBe('{"a":1}');
    expect(parseRouteValue('')).toBe('');
  });

  it('shows every value so that reading it back gives the same value', () => {
    for (const value of ['legal', 'true', '3', 'null', '"q"', 'two words', true, false, 0, 2.5, null, '']) {
      expect(parseRouteValue(routeValueText(value))).toEqual(value);
    }
    expect(routeValueText('legal')).toBe('legal');
    expect(routeValueText('true')).toBe('"true"');
    expect(routeValueText(true)).toBe('true');
  });
});
