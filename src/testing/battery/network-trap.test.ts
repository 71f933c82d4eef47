import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockModelServer } from '../mock-server.ts';
import { installNetworkTrap, TrappedNetworkError, type NetworkTrap } from './network-trap.ts';

let trap: NetworkTrap | undefined;
afterEach(() => trap?.restore());

describe('network trap', () => {
  it('refuses and counts fetch, http and raw sockets to hosts not allowed, and lets the allowed host through', async () => {
    const server = await createMockModelServer({ idleExitMs: 5_000 });
    trap = installNetworkTrap({ allowHosts: [new URL(server.url).host] });
    await expect(fetch('http://127.0.0.1:9/')).rejects.toBeInstanceOf(TrappedNetworkError);
    expect(() => request('http://example.invalid/')).toThrow(TrappedNetworkError);
    expect(() => connect(9, '10.0.0.1')).toThrow(TrappedNetworkError);
    const health = await fetch(`${server.url}/v1/models`);
    expect(health.status).toBe(200);
    expect(trap.unexpected().map((r) => r.via)).toEqual(['fetch', 'http', 'net']);
    // Node's fetch opened its socket through the patched net.connect: the trap sees below fetch.
    expect(trap.requests.filter((r) => r.allowed).map((r) => r.via)).toEqual(expect.arrayContaining(['fetch', 'net']));
    trap.restore();
    await server.close();
  });
});
