import { connect, StringCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NatsProcess, startNats } from './nats.process';

const codec = StringCodec();

async function roundTrip(url: string, subject: string, payload: string): Promise<string> {
  const nc = await connect({ servers: url });
  try {
    const sub = nc.subscribe(subject, { max: 1 });
    const received = (async () => {
      for await (const msg of sub) return codec.decode(msg.data);
      return undefined;
    })();
    await nc.flush(); // the subscription must reach the server before we publish
    nc.publish(subject, codec.encode(payload));
    return (await received) ?? '';
  } finally {
    await nc.close();
  }
}

describe('startNats', () => {
  let nats: NatsProcess;

  beforeAll(async () => {
    nats = await startNats();
  });
  afterAll(() => nats.stop());

  it('carries a publish to a subscriber', async () => {
    expect(nats.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(await roundTrip(nats.url, 'test.hello', 'hi')).toBe('hi');
  });

  it('comes back on the same URL after restart', async () => {
    await nats.restart();
    expect(await roundTrip(nats.url, 'test.again', 'back')).toBe('back');
  });
});
