import { isRecord } from '../../src/files/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { EndpointProfile } from '../../src/providers/index.ts';

/**
 * An endpoint a chain file names in its notes (`meta.endpoint`: a base URL, or
 * `{ "url" | "baseUrl", "model", "protocol" }`). A chain file is data from anywhere: the address
 * is never called, and no key is ever sent to it, until the person confirms it (EndpointConfirm).
 */
export interface ChainEndpoint {
  url: string;
  origin: string;
  model: string | null;
  protocol: 'openai' | 'anthropic';
}

function text(value: unknown, max = 2000): string | null {
  return typeof value === 'string' && value.trim() && value.length <= max ? value.trim() : null;
}

/**
 * A chain naming an endpoint with a user name or password in its URL carries a credential in
 * a shared file: refused at import, with the path, rather than quietly ignored.
 */
export function chainEndpointProblem(chain: Chain): { path: string; message: string } | null {
  const raw = chain.meta?.endpoint;
  const obj = isRecord(raw) ? raw : null;
  const key = obj ? (typeof obj.url === 'string' ? 'url' : 'baseUrl') : null;
  const url = obj && key ? obj[key] : raw;
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url.trim());
    if (!parsed.username && !parsed.password) return null;
  } catch {
    return null;
  }
  return { path: key ? `meta.endpoint.${key}` : 'meta.endpoint', message: 'has a user name or password in it (user:pass@host): credentials never go in a chain file' };
}

export function chainEndpoint(chain: Chain): ChainEndpoint | null {
  const raw = chain.meta?.endpoint;
  const obj = isRecord(raw) ? raw : null;
  const url = text(obj ? (obj.url ?? obj.baseUrl) : raw);
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' || parsed.username || parsed.password) return null;
  const model = text(obj?.model ?? chain.meta?.model, 200);
  const protocol = (obj?.protocol ?? obj?.kind) === 'anthropic' ? 'anthropic' : 'openai';
  return { url: parsed.href.replace(/\/+$/, ''), origin: parsed.origin, model, protocol };
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** A profile the person already made for this address (they typed it, so it is confirmed). */
export function profileForEndpoint(profiles: readonly EndpointProfile[], endpoint: ChainEndpoint): EndpointProfile | undefined {
  return profiles.find((p) => p.kind !== 'demo' && p.baseUrl.replace(/\/+$/, '') === endpoint.url) ?? profiles.find((p) => p.kind !== 'demo' && originOf(p.baseUrl) === endpoint.origin && p.kind === endpoint.protocol);
}
