/**
 * zod 4 speeds up object parsing with code it generates through the Function constructor, probing for it
 * with a caught call of the Function constructor — which a strict Content-Security-Policy (the built app's:
 * no 'unsafe-eval') reports as a violation even though the throw is swallowed. zod reads its
 * configuration from `globalThis.__zod_globalConfig`, and decides when each schema is created,
 * so this must run before zod loads: it imports nothing, and the analysis worker imports it and
 * then the rest with a dynamic import() (a static import would not do: the bundler may evaluate
 * a shared chunk that defines schemas first). The page sets the same flag from
 * public/zod-jitless.js, a classic script that runs before the module entry, so the page's own
 * module graph stays static. In Node only the CLI sets it (src/cli/bin.ts, for a faster cold
 * start); everything else keeps zod's default (no CSP there).
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
