/** Reading files that arrive from elsewhere: strict JSON and the file-name check they share. */
export { formatJsonPath, parseStrictJson, type JsonPath, type StrictJsonErrorCode, type StrictJsonOptions, type StrictJsonResult } from './strict-json.ts';
export { checkRelativePath, MAX_RELATIVE_PATH_LENGTH, type RelativePathCheck } from './relative-path.ts';
