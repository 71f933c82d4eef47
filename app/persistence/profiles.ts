import type { EndpointProfile } from '../../src/providers/index.ts';
import { loadProviderModule } from './connection.ts';
import type { SeamscopeDb } from './db.ts';

/**
 * Endpoint profiles and their keys. The key goes to the `secrets` table only, keyed by
 * profile id; a profile record never carries it, so nothing that copies profiles, chains
 * or runs can leak it.
 */
export async function loadProfiles(db: SeamscopeDb): Promise<EndpointProfile[]> {
  const [{ demoProfile, endpointProfileSchema }, stored] = await Promise.all([loadProviderModule(), db.profiles.toArray()]);
  const valid = stored.flatMap((p) => {
    const parsed = endpointProfileSchema.safeParse(p);
    return parsed.success && parsed.data.id !== demoProfile.id ? [parsed.data] : [];
  });
  return [demoProfile, ...valid.sort((a, b) => a.name.localeCompare(b.name))];
}

/** Saves a profile; `apiKey` undefined keeps the stored key, '' removes it. */
export async function saveProfile(db: SeamscopeDb, profile: EndpointProfile, apiKey: string | undefined): Promise<void> {
  await db.transaction('rw', db.profiles, db.secrets, async () => {
    await db.profiles.put(profile);
    if (apiKey === '') await db.secrets.delete(profile.id);
    else if (apiKey !== undefined) await db.secrets.put({ profileId: profile.id, apiKey });
  });
}

export async function deleteProfile(db: SeamscopeDb, id: string): Promise<void> {
  await db.transaction('rw', db.profiles, db.secrets, async () => {
    await db.profiles.delete(id);
    await db.secrets.delete(id);
  });
}

export async function hasApiKey(db: SeamscopeDb, profileId: string): Promise<boolean> {
  return (await db.secrets.get(profileId)) !== undefined;
}

export async function getApiKey(db: SeamscopeDb, profileId: string): Promise<string | undefined> {
  return (await db.secrets.get(profileId))?.apiKey;
}
