/**
 * zod/mini, with zod's English messages: what the chain and step-config schemas are written in.
 * These schemas sit on the app's first paint (the store adds steps from their defaults, the
 * palette lists the registry), and zod/mini leaves out what they never call: classic zod's
 * method chains keep every schema class and check in the bundle (≈15 KiB gzip more).
 * Both are the same engine (zod/v4/core), so a classic schema elsewhere can embed these and
 * parse results, errors and JSON Schema are the same. zod/mini registers no locale of its own
 * (classic zod registers English on its first schema): without this, a config error would read
 * "Invalid input" until something loaded classic zod. `config` replaces only the locale.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export * from 'zod/mini';
