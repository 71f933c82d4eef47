/**
 * The built app's Content-Security-Policy. No script runs unless it is a file from the app's
 * own origin: no inline script, no `eval` or the Function constructor (validation interprets schemas, zod
 * runs jitless), no plugins, no <base> rewriting, and no page may frame the app. Model
 * endpoints are any http(s) origin the person configures (each confirmed in the app), so
 * `connect-src` cannot be narrower than that; a connected `seamscope collect` is one more such
 * origin, reached only after the person connects it (a page cannot widen its own policy later,
 * so admitting it then is not possible; the gate is the app sending nothing before). Styles may be inline: Monaco and React Flow
 * inject <style> elements; styles cannot run code.
 *
 * The dev server (HMR) needs inline and eval'd code, so this applies to `vite build` (a meta
 * tag) and `vite preview` (a response header) only; `frame-ancestors` works only as a header.
 */
const directives: [string, string][] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['worker-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data: blob:"],
  ['font-src', "'self' data:"],
  ['connect-src', "'self' http: https:"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
];

const join = (list: [string, string][]) => list.map(([k, v]) => `${k} ${v}`).join('; ');

/** For the <meta http-equiv> tag: what a meta-delivered policy supports. */
export const CSP_META = join(directives);
/** For the response header: the same, plus what only a header can carry. */
export const CSP_HEADER = join([...directives, ['frame-ancestors', "'none'"]]);
