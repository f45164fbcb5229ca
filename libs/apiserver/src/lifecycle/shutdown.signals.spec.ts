import 'reflect-metadata';
import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_SIGNALS, stopOnShutdownSignals } from './shutdown.signals';

@Injectable()
class Recorder implements OnApplicationShutdown {
  static signals: Array<string | undefined> = [];
  onApplicationShutdown(signal?: string): void {
    Recorder.signals.push(signal);
  }
}

@Module({ providers: [Recorder] })
class RecorderModule {}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('stopOnShutdownSignals', () => {
  const before = new Map(SHUTDOWN_SIGNALS.map((s) => [s, process.listeners(s)]));
  afterEach(() => {
    // Nest's handlers would exit the test process on a real SIGTERM: leave only what was there.
    for (const [signal, listeners] of before) for (const l of process.listeners(signal)) if (!listeners.includes(l)) process.removeListener(signal, l);
    Recorder.signals = [];
  });

  it('listens to SIGTERM and SIGINT, as kube-apiserver does', async () => {
    const app = stopOnShutdownSignals(await NestFactory.createApplicationContext(RecorderModule, { logger: false }));
    for (const signal of SHUTDOWN_SIGNALS) expect(process.listeners(signal).length).toBeGreaterThan(before.get(signal)!.length);
    await app.close();
  });

  it.each(['SIGHUP', 'SIGUSR2', 'SIGQUIT'] as const)('keeps serving on %s (log reopening, heap snapshots)', async (signal) => {
    const app = stopOnShutdownSignals(await NestFactory.createApplicationContext(RecorderModule, { logger: false }));
    const listening = process.listeners(signal).length;
    // With Nest's default list, a listener would be here and run the shutdown hooks (then kill the process).
    process.emit(signal, signal);
    await pause(20);
    expect(Recorder.signals).toEqual([]);
    expect(listening).toBe(0);
    await app.close();
  });
});
