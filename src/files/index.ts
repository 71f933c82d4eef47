/**
 * Reading files that arrive from elsewhere: strict JSON and the file-name check they share (strict YAML,
 * `./strict-yaml.ts`, is imported directly: it carries the YAML parser, which the first paint must not).
 *
 * @example
 * import { parseStrictJson } from '../src/files/index.ts';
 * const result = parseStrictJson(text);
 * if (!result.ok) console.error(`${formatJsonPath(result.path)}: ${result.message}`);
 */
export { formatJsonPath, parseStrictJson, type JsonPath, type StrictJsonErrorCode, type StrictJsonOptions, type StrictJsonResult } from './strict-json.ts';
export { checkRelativePath, MAX_RELATIVE_PATH_LENGTH, type RelativePathCheck } from './relative-path.ts';
export { firstIssue } from './zod-issue.ts';
export { isContainer, isRecord, propertyOf, prototypeFreeRecord } from './json-value.ts';
