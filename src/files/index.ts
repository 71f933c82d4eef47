/**
 * Reading files that arrive from elsewhere: strict JSON, strict YAML and the file-name check they share.
 *
 * @example
 * import { parseStrictJson } from '../src/files/index.ts';
 * const result = parseStrictJson(text);
 * if (!result.ok) console.error(`${formatJsonPath(result.path)}: ${result.message}`);
 */
export { formatJsonPath, parseStrictJson, type JsonPath, type StrictJsonErrorCode, type StrictJsonOptions, type StrictJsonResult } from './strict-json.ts';
export { MAX_YAML_BYTES, parseStrictYaml, type StrictYamlErrorCode, type StrictYamlOptions, type StrictYamlResult } from './strict-yaml.ts';
export { checkRelativePath, MAX_RELATIVE_PATH_LENGTH, type RelativePathCheck } from './relative-path.ts';
export { firstIssue } from './zod-issue.ts';
export { isContainer, isRecord, propertyOf, prototypeFreeRecord } from './json-value.ts';
