import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backendGet } from './backend.get';
import { BackendAgents, type BackendTarget } from './backend.target';
import { TestBackends } from './backend.testing';

describe('BackendAgents', () => {
  let backends: TestBackends;

  beforeEach(async () => {
    backends = await TestBackends.create();
  });

  afterEach(() => backends.close());

  it('keeps one pool per endpoint and trust, reused by every request', () => {
    const agents = new BackendAgents(backends.client);
    const t: BackendTarget = { name: 'a', url: new URL('https://10.0.0.1:443'), caPem: 'ca-1' };
    expect(agents.agentFor(t)).toBe(agents.agentFor({ ...t, name: 'other name' }));
    expect(agents.agentFor({ ...t, caPem: 'ca-2' })).not.toBe(agents.agentFor(t));
    expect(agents.size).toBe(2);
    agents.destroy();
  });

  it('retires the least recently used pool past its bound, closing its idle connections', async () => {
    const agents = new BackendAgents(backends.client, 2);
    const targets: BackendTarget[] = [];
    for (let i = 0; i < 3; i++) {
      targets.push(
        await backends.start((_req, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{}');
        }),
      );
    }
    await backendGet(targets[0], agents, '/', 'application/json');
    const first = agents.agentFor(targets[0]);
    await backendGet(targets[1], agents, '/', 'application/json');
    const second = agents.agentFor(targets[1]);
    expect(Object.values(second.freeSockets).flat()).toHaveLength(1);
    await backendGet(targets[0], agents, '/', 'application/json'); // targets[1] is now the least recently used
    await backendGet(targets[2], agents, '/', 'application/json');
    expect(agents.size).toBe(2);
    expect(agents.agentFor(targets[0])).toBe(first);
    expect(Object.values(second.freeSockets).flat()).toHaveLength(0);
    // 1,000 endpoints later the pools are still bounded.
    for (let i = 0; i < 1000; i++) agents.agentFor({ name: `t${i}`, url: new URL(`https://10.0.${i >> 8}.${i & 255}:443`) });
    expect(agents.size).toBe(2);
    agents.destroy();
  });
});
