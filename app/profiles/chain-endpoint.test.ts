import { describe, expect, it } from 'vitest';
import { demoProfile, type EndpointProfile } from '../../src/providers/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { chainEndpoint, chainEndpointProblem, profileForEndpoint } from './chain-endpoint.ts';

const withMeta = (meta: Record<string, unknown>) => ({ ...twoStepChain(), meta });

describe('chainEndpoint', () => {
  it('reads a URL or an object, and refuses anything that is not plain http(s)', () => {
    expect(chainEndpoint(withMeta({ endpoint: 'http://127.0.0.1:11434/v1/' }))).toEqual({ url: 'http://127.0.0.1:11434/v1', origin: 'http://127.0.0.1:11434', model: null, protocol: 'openai' });
    expect(chainEndpoint(withMeta({ endpoint: { baseUrl: 'https://api.example.com', model: 'm1', protocol: 'anthropic' } }))).toMatchObject({ model: 'm1', protocol: 'anthropic' });
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@example.com', 'not a url', 42, null]) expect(chainEndpoint(withMeta({ endpoint: bad }))).toBeNull();
    expect(chainEndpoint(twoStepChain())).toBeNull();
  });

  it('matches a profile the person made for the same address', () => {
    const mine: EndpointProfile = { ...demoProfile, id: 'p', kind: 'openai', baseUrl: 'http://127.0.0.1:8787/v1/' };
    const endpoint = chainEndpoint(withMeta({ endpoint: 'http://127.0.0.1:8787/v1' }))!;
    expect(profileForEndpoint([demoProfile, mine], endpoint)?.id).toBe('p');
    expect(profileForEndpoint([demoProfile], endpoint)).toBeUndefined();
  });
});

describe('chainEndpointProblem', () => {
  it('refuses, with the path, an endpoint whose URL carries a user name or password; anything else is no problem', () => {
    expect(chainEndpointProblem(withMeta({ endpoint: 'https://user:pw@example.com/v1' }))).toMatchObject({ path: 'meta.endpoint', message: expect.stringContaining('user name or password') });
    expect(chainEndpointProblem(withMeta({ endpoint: { baseUrl: 'https://token@example.com' } }))?.path).toBe('meta.endpoint.baseUrl');
    expect(chainEndpointProblem(withMeta({ endpoint: { url: 'http://a:b@127.0.0.1:1' } }))?.path).toBe('meta.endpoint.url');
    for (const fine of ['https://example.com/v1', 'not a url', 42, null]) expect(chainEndpointProblem(withMeta({ endpoint: fine }))).toBeNull();
    expect(chainEndpointProblem(twoStepChain())).toBeNull();
  });
});
