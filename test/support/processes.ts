import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitUntil } from './wait.js';

/** A built app (`dist/apps/<name>/main.js`) running as a child process, answering on `url`. */
export interface ServiceProcess {
  child: ChildProcess;
  /** Where its HTTP server answers: the api itself, or the poller's probe server. */
  url: string;
  /** Everything it printed on stdout and stderr so far. */
  output(): string;
  /** Sends `signal` (SIGTERM by default) unless it has exited, and resolves once it has. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const PORT_VARIABLE = {
  api: 'PORT',
  poller: 'POLLER_HEALTH_PORT',
  sandbox: 'SANDBOX_PORT',
} as const;
/**
 * How long a child may take to answer: a Nest app boots in about a second on a quiet machine and
 * many times that on a busy one, and a slow start is not what any test here checks.
 */
const STARTUP_TIMEOUT_MS = 60_000;

/** What answers 200 once the app serves. */
const READY_PATH = { api: '/health', poller: '/health', sandbox: '/sandbox/stats' } as const;

/**
 * Starts `dist/apps/<app>/main.js` with exactly `env` (plus PATH) on a free loopback port and
 * waits until it answers (`/health`; the sandbox's `/sandbox/stats`). A child that exits first
 * fails the wait with its output.
 */
export async function spawnService(
  app: keyof typeof PORT_VARIABLE,
  env: Record<string, string | undefined>,
): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [`dist/apps/${app}/main.js`], {
    env: { ...env, [PORT_VARIABLE[app]]: String(port), PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const collect = (chunk: Buffer): void => {
    printed += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = (): boolean => child.exitCode === null && child.signalCode === null;

  try {
    await waitUntil(
      `the spawned ${app} to answer ${READY_PATH[app]}`,
      async () => {
        if (!running()) {
          throw new Error(`the spawned ${app} exited (${child.exitCode}): ${printed.slice(-2000)}`);
        }
        const res = await fetch(`${url}${READY_PATH[app]}`).catch(() => null);
        return res?.status === 200;
      },
      STARTUP_TIMEOUT_MS,
      100,
    );
  } catch (error) {
    // A child that never answered must not outlive the test that started it.
    if (running()) {
      child.kill('SIGKILL');
    }
    await exited;
    throw error;
  }

  return {
    child,
    url,
    output: () => printed,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (running()) {
        child.kill(signal);
      }
      await exited;
    },
  };
}

/**
 * Starts one `app` per entry of `envs` at once; when any fails to answer, stops the others before
 * throwing, so no child outlives the hook that started it.
 */
export async function spawnServices(
  app: keyof typeof PORT_VARIABLE,
  envs: Record<string, string | undefined>[],
): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(envs.map((env) => spawnService(app, env)));
  const running = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(running.map((service) => service.stop()));
    throw failure.reason;
  }
  return running;
}
