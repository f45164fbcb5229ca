import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { register } from 'prom-client';
import { closeGracefully, HealthChecks, listenHttps, type HealthEndpoint } from '@kube/apiserver';
import { CONTROLLER_MANAGER_OPTIONS } from './controller.manager';
import type { ControllerManagerOptions } from './controller-manager.config';

const HEALTH: ReadonlySet<string> = new Set(['healthz', 'livez', 'readyz']);

/**
 * kube-controller-manager's secure port: /healthz, /livez, /readyz (kube's health checks, verbose with ?verbose,
 * one check by path) and /metrics. Like kube's --authorization-always-allow-paths, health answers anyone.
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;
  port = 0;

  constructor(
    @Inject(CONTROLLER_MANAGER_OPTIONS) private readonly options: ControllerManagerOptions,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { serving } = this.options;
    const { server, port } = await listenHttps({ certPem: serving.certPem, keyPem: serving.keyPem, ca: [] }, serving, (req, res) => void this.serve(req, res));
    this.server = server;
    this.port = port;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.server) await closeGracefully(this.server);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const [first, ...rest] = url.pathname.split('/').filter(Boolean);
    try {
      if (req.method === 'GET' && first && HEALTH.has(first)) {
        const result = await this.health.run(first as HealthEndpoint, url.searchParams.has('verbose'), rest.join('/') || undefined, url.searchParams.getAll('exclude'));
        res.writeHead(result.code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }).end(result.body);
        return;
      }
      if (req.method === 'GET' && url.pathname === '/metrics') {
        res.writeHead(200, { 'Content-Type': register.contentType }).end(await register.metrics());
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${(err as Error).message}\n`);
    }
  }
}
