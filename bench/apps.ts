import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startSandbox, type SandboxServer } from '../apps/sandbox/sandbox.bootstrap.js';

export const API_MAIN = fileURLToPath(new URL('../apps/api/main.js', import.meta.url));
export const POLLER_MAIN = fileURLToPath(new URL('../apps/poller/main.js', import.meta.url));

/** One of the production entry points, running as a process of its own. */
export interface AppProcess {
  /** Where it answers `GET /health`: the api itself, or the poller's probe server. */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Resident memory of a process, from the kernel, in MB (10^6 bytes, as the targets say). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 'NaN');
  return (kb * 1024) / 1e6;
}

/**
 * Starts `main` (an entry point in `dist/`) with `env`, listening on a free port given in the
 * variable `portVariable` (`PORT` for the api, `POLLER_HEALTH_PORT` for the poller), and waits
 * for its `/health`. Its output is dropped: the lines are still written, so their cost counts.
 */
export async function startApp(
  main: string,
  portVariable: string,
  env: Record<string, string>,
): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...env, [portVariable]: String(port) },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) {
        return { url, process: child, stop };
      }
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      await stop();
      throw new Error(`${main} did not start`);
    }
    await sleep(100);
  }
}

/** The operator's side of a spawned api: partners made as the admin API makes them. */
export class AdminClient {
  constructor(
    private readonly apiUrl: string,
    private readonly adminToken: string,
  ) {}

  private async call<T>(method: string, path: string, body: unknown): Promise<T> {
    const res = await fetch(`${this.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    }
    return JSON.parse(text) as T;
  }

  /** An active organization, cleared to create swaps. */
  async organization(name: string): Promise<string> {
    const { organization } = await this.call<{ organization: { id: string } }>(
      'POST',
      '/admin/organizations',
      { name, feePercent: '1', status: 'active', providerActivated: true },
    );
    return organization.id;
  }

  /** A new live credential of the organization, as its `Authorization` header. */
  async credential(organizationId: string): Promise<string> {
    const { credential } = await this.call<{ credential: { publicKey: string; secret: string } }>(
      'POST',
      `/admin/organizations/${organizationId}/credentials`,
      {},
    );
    return `Bearer ${credential.publicKey}:${credential.secret}`;
  }
}

/** A key pair for the provider's request signatures: the apps sign, the sandbox verifies. */
export interface ProviderKeys {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function newProviderKeys(): ProviderKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * A silent sandbox in this process, on an ephemeral port. `stepMs` is how long each status of a
 * swap's lifecycle lasts once a deposit is in.
 */
export function startBenchSandbox(
  publicKeyPem: string,
  stepMs: number,
  changenowApiKey: string | null = null,
): Promise<SandboxServer> {
  return startSandbox(
    {
      appEnv: 'bench',
      version: '0.0.0-bench',
      logLevel: 'silent',
      port: 0,
      publicKeyPem,
      changenowApiKey,
      stepMs,
      seed: 42,
    },
    pino({ level: 'silent' }),
  );
}
