import type { RunRepository } from '../../src/trace/index.ts';
import type { SeamscopeDb } from './db.ts';

/**
 * The database and the run repository, loaded through import(): Dexie (~30 kB gzip) is not
 * needed to paint the shell, so it loads in parallel with the first render instead of
 * before it. Every caller awaits these; the promises are created once.
 */
let database: Promise<SeamscopeDb> | null = null;
let repository: Promise<RunRepository> | null = null;

export function openDb(): Promise<SeamscopeDb> {
  database ??= import('./db.ts').then((m) => m.db);
  return database;
}

export function getRunRepository(): Promise<RunRepository> {
  repository ??= Promise.all([openDb(), import('./run-repository.ts')]).then(([db, m]) => m.createDexieRunRepository(db));
  return repository;
}

/**
 * The provider module (profiles, the demo model, OpenAI and Anthropic clients) is likewise
 * loaded after first paint; the profile list is filled in once it arrives.
 */
export function loadProviderModule() {
  return import('../../src/providers/profiles.ts');
}
