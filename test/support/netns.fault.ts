/**
 * Network faults between real processes: a network namespace made by the test, joined to the host by links
 * (one private /30 each), processes run inside it, and faults (partition, delay) on one link while the others
 * stay healthy. Needs root, iproute2 (`ip netns`) and /dev/net/tun; `netnsUnavailable()` says why not.
 *
 * Each link is a pair of TUN devices (host end, namespace end) with a small packet shuttle between them, a
 * userspace netem: this machine's kernel has no sch_netem, and the shuttle drops or delays real IP packets the
 * same way (TCP sees lost segments and stalls, or a longer round trip), per link, without touching the host's
 * firewall or qdiscs.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findExecutable, onProcessExit, SupervisedProcess } from '@kube/testing';

/** One link: `hostIp` on the host's end, `nsIp` on the namespace's end, both in one /30. */
export interface NetnsLink {
  readonly name: string;
  readonly hostIp: string;
  readonly nsIp: string;
}

/**
 * The shuttle: opens two TUN devices, copies IP packets between them, dropping them all after `loss`, holding
 * each for N ms after `delay N`, passing them at once after `heal`; answers every command with `ok` once it
 * applies, and exits when its stdin closes (the devices go with it).
 */
const SHUTTLE = String.raw`
import fcntl, heapq, os, select, struct, sys, time
def tun(name):
    fd = os.open('/dev/net/tun', os.O_RDWR)
    fcntl.ioctl(fd, 0x400454ca, struct.pack('16sH', name.encode(), 0x0001 | 0x1000))
    os.set_blocking(fd, False)
    return fd
a, b = tun(sys.argv[1]), tun(sys.argv[2])
ctl = sys.stdin.fileno()
print('ok ready', flush=True)
delay, drop, queue, seq, pending = 0.0, False, [], 0, b''
while True:
    wait = max(0.0, queue[0][0] - time.monotonic()) if queue else None
    ready, _, _ = select.select([a, b, ctl], [], [], wait)
    for fd in ready:
        if fd == ctl:
            data = os.read(ctl, 4096)
            if not data:
                sys.exit(0)
            pending += data
            while b'\n' in pending:
                line, pending = pending.split(b'\n', 1)
                words = line.decode().split()
                if words[0] == 'loss':
                    drop, queue = True, []
                elif words[0] == 'delay':
                    drop, delay = False, int(words[1]) / 1000
                elif words[0] == 'heal':
                    drop, delay = False, 0.0
                print('ok ' + words[0], flush=True)
            continue
        out = b if fd == a else a
        while True:
            try:
                packet = os.read(fd, 65535)
            except BlockingIOError:
                break
            if drop:
                continue
            if delay == 0 and not queue:
                try: os.write(out, packet)
                except OSError: pass
            else:
                seq += 1
                heapq.heappush(queue, (time.monotonic() + delay, seq, out, packet))
    while queue and queue[0][0] <= time.monotonic():
        _, _, out, packet = heapq.heappop(queue)
        try: os.write(out, packet)
        except OSError: pass
`;

let counter = 0;

function python(): string | undefined {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { stdio: 'pipe', encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Why network namespaces cannot be used here, or undefined when they can. */
export function netnsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'network fault tests need root (ip netns, TUN devices)';
  if (!findExecutable('ip')) return 'network fault tests need ip (iproute2)';
  if (!existsSync('/dev/net/tun')) return 'network fault tests need /dev/net/tun';
  if (!python()) return 'network fault tests need python3 (the packet shuttle between TUN devices)';
  const probe = `kts-probe-${process.pid}`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
    execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
  } catch (err) {
    return `ip netns does not work here: ${(err as Error).message.split('\n')[0]}`;
  }
  return undefined;
}

const run = (args: readonly string[]): string => execFileSync('ip', [...args], { stdio: 'pipe', encoding: 'utf8' });

/** A 10.231.X.0/24 no interface of this host uses yet: each link takes a /30 of it. */
function freeSubnet(): string {
  const used = run(['-4', '-o', 'addr', 'show']);
  for (let attempt = 0; attempt < 256; attempt++) {
    const prefix = `10.231.${(process.pid * 7 + counter * 13 + attempt) % 256}.`;
    if (!used.includes(` ${prefix}`)) return prefix;
  }
  throw new Error('no free 10.231.X.0/24 subnet for a test network namespace');
}

/** One shuttle process: commands on stdin, one `ok` line back per command. */
class Shuttle {
  private readonly child: ChildProcess;
  private readonly waiting: Array<{ word: string; resolve: () => void; reject: (err: Error) => void }> = [];
  private output = '';
  private exitMessage: string | undefined;

  constructor(executable: string, hostDev: string, nsDev: string) {
    this.child = spawn(executable, ['-c', SHUTTLE, hostDev, nsDev], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.output += chunk;
      let nl: number;
      while ((nl = this.output.indexOf('\n')) >= 0) {
        const line = this.output.slice(0, nl);
        this.output = this.output.slice(nl + 1);
        const next = this.waiting.shift();
        if (next && line === `ok ${next.word}`) next.resolve();
        else next?.reject(new Error(`link shuttle answered ${JSON.stringify(line)} to ${next.word}`));
      }
    });
    let stderr = '';
    this.child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    this.child.once('close', (code, signal) => {
      this.exitMessage = `link shuttle exited (${signal ?? code}): ${stderr.trim()}`;
      for (const w of this.waiting.splice(0)) w.reject(new Error(this.exitMessage));
    });
  }

  /** Resolves once the shuttle opened its devices. */
  ready(): Promise<void> {
    return this.expect('ready');
  }

  command(line: string): Promise<void> {
    const done = this.expect(line.split(' ')[0]);
    this.child.stdin?.write(`${line}\n`);
    return done;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  private expect(word: string): Promise<void> {
    if (this.exitMessage) return Promise.reject(new Error(this.exitMessage));
    return new Promise((resolve, reject) => this.waiting.push({ word, resolve, reject }));
  }
}

/**
 * A network namespace with one link per name given to `create`. Processes started with `spawn` run inside it
 * (loopback up, no default route: they reach the host only through the links). Removed by `destroy()`, and at
 * the latest when the test process exits.
 */
export class NetnsFault {
  readonly name: string;
  private readonly links = new Map<string, NetnsLink>();
  private readonly shuttles = new Map<string, Shuttle>();
  private readonly procs: SupervisedProcess[] = [];
  private readonly unregister: () => void;

  private constructor(private readonly id: string) {
    this.name = `kts-${id}`;
    // Registered first: a failure half-way through set-up must leave nothing behind either.
    this.unregister = onProcessExit(() => this.removeSync());
  }

  /** Creates the namespace and its links; throws (with `ip`'s message) when it cannot. */
  static async create(linkNames: readonly string[]): Promise<NetnsFault> {
    const net = new NetnsFault(`${process.pid % 100_000}${++counter}`);
    try {
      run(['netns', 'add', net.name]);
      run(['-n', net.name, 'link', 'set', 'lo', 'up']);
      const prefix = freeSubnet();
      const executable = python() as string;
      for (const [i, name] of linkNames.entries()) {
        // Interface names are at most 15 bytes.
        const hostDev = `kh${net.id}-${i}`;
        const nsDev = `kn${net.id}-${i}`;
        const link: NetnsLink = { name, hostIp: `${prefix}${4 * i + 1}`, nsIp: `${prefix}${4 * i + 2}` };
        const shuttle = new Shuttle(executable, hostDev, nsDev);
        net.shuttles.set(name, shuttle);
        await shuttle.ready();
        run(['link', 'set', nsDev, 'netns', net.name]);
        run(['addr', 'add', link.hostIp, 'peer', `${link.nsIp}/32`, 'dev', hostDev]);
        run(['link', 'set', hostDev, 'up']);
        run(['-n', net.name, 'addr', 'add', link.nsIp, 'peer', `${link.hostIp}/32`, 'dev', nsDev]);
        run(['-n', net.name, 'link', 'set', nsDev, 'up']);
        net.links.set(name, link);
      }
    } catch (err) {
      await net.destroy();
      throw err;
    }
    return net;
  }

  link(name: string): NetnsLink {
    const link = this.links.get(name);
    if (!link) throw new Error(`no link ${name} in ${this.name}`);
    return link;
  }

  /** Runs `command` inside the namespace (`ip netns exec` execs it: the pid is the command's). */
  spawn(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, keepLines = 2_000): SupervisedProcess {
    const proc = new SupervisedProcess({ name, command: 'ip', args: ['netns', 'exec', this.name, command, ...args], env, keepLines });
    this.procs.push(proc);
    return proc;
  }

  /** Every packet on the link is dropped, both ways; established TCP connections stall as in a real partition. */
  partition(link: string): Promise<void> {
    return this.shuttle(link).command('loss');
  }

  /** Every packet on the link waits `ms` in each direction. */
  delay(link: string, ms: number): Promise<void> {
    return this.shuttle(link).command(`delay ${ms}`);
  }

  /** The link carries traffic normally again. */
  heal(link: string): Promise<void> {
    return this.shuttle(link).command('heal');
  }

  /** Stops the processes started inside, then removes the namespace and the links. */
  async destroy(): Promise<void> {
    await Promise.all(this.procs.map((p) => p.stop()));
    this.removeSync();
    this.unregister();
  }

  private shuttle(link: string): Shuttle {
    const shuttle = this.shuttles.get(link);
    if (!shuttle) throw new Error(`no link ${link} in ${this.name}`);
    return shuttle;
  }

  private removeSync(): void {
    // The TUN devices vanish with the shuttles that hold them.
    for (const shuttle of this.shuttles.values()) shuttle.kill();
    try {
      run(['netns', 'del', this.name]);
    } catch {
      // Never created, or already removed.
    }
  }
}
