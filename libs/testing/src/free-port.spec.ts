import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePorts } from './free-port';

describe('freePort', () => {
  it('returns a port that can be bound', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns distinct ports when asked for several', async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
  });
});
