import { z } from 'zod';

/**
 * zod 4 speeds up object parsing with code it generates through `new Function`, probing for it
 * with a caught `new Function("")` — which a strict Content-Security-Policy (the built app's:
 * no 'unsafe-eval') reports as a violation even though the throw is swallowed. Whether to
 * generate is decided when each schema is created, so this module must be evaluated before any
 * module that defines one: browser entry points (app/main.tsx, workers) import it first.
 * Node keeps zod's default (no CSP there).
 */
z.config({ jitless: true });
