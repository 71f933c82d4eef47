// Runs before any module of the app (a classic script ahead of the module entry in index.html):
// zod 4 probes for the Function constructor when it builds a schema unless it is jitless, and under the
// app's CSP (no 'unsafe-eval') that probe is reported as a violation even though zod catches
// it. The module graph stays static, so the first paint needs no extra round trip.
// Same flag as src/zod-jitless.ts, which the analysis worker imports first.
globalThis.__zod_globalConfig = Object.assign({}, globalThis.__zod_globalConfig, { jitless: true });
