import { testApiEnv } from './support/api.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { waitUntil } from './support/wait.js';

/** How long a spawned process may take to write a line or to exit on a busy machine. */
const LOG_WAIT_MS = 20_000;

/**
 * Node's `--import` of a module that, on SIGWINCH (a signal neither Node nor Nest's shutdown hooks
 * act on), fails from inside a callback as a bug in a library would: `rejection` rejects a promise
 * nobody handles, `exception` throws.
 */
function provokeOnSignal(failure: 'rejection' | 'exception'): string {
  const fail =
    failure === 'rejection'
      ? `void Promise.reject(new Error('provoked rejection'));`
      : `throw new Error('provoked exception');`;
  const source = `process.on('SIGWINCH', () => { ${fail} });`;
  return `--import=data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
}

interface LogLine {
  level: number;
  msg: string;
  process?: string;
  origin?: string;
  err?: { message: string; stack?: string };
}

function logLines(service: ServiceProcess, msg: string): LogLine[] {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg.startsWith(msg));
}

/** The api and the poller, each from `dist` as production runs them, with a failure to provoke. */
function spawnWith(
  app: 'api' | 'poller',
  failure: 'rejection' | 'exception',
): Promise<ServiceProcess> {
  return spawnService(
    app,
    testApiEnv({
      LOG_LEVEL: 'info',
      NODE_OPTIONS: provokeOnSignal(failure),
      POLL_INTERVAL_MS: '600000',
    }),
  );
}

describe.each(['api', 'poller'] as const)('errors escaping a handler in the %s', (app) => {
  const started: ServiceProcess[] = [];

  afterAll(async () => {
    await Promise.all(started.map((service) => service.stop('SIGKILL')));
  });

  it('logs a rejection nobody handles, with its stack, and keeps serving', async () => {
    const service = await spawnWith(app, 'rejection');
    started.push(service);

    for (const round of [1, 2]) {
      const before = logLines(service, 'unhandled promise rejection').length;
      service.child.kill('SIGWINCH');
      await waitUntil(
        `rejection ${round} in the log`,
        () => {
          if (service.child.exitCode !== null) {
            throw new Error(`the ${app} exited (${service.child.exitCode})`);
          }
          return Promise.resolve(logLines(service, 'unhandled promise rejection').length > before);
        },
        LOG_WAIT_MS,
        50,
      );
      expect((await fetch(`${service.url}/health`)).status).toBe(200);
    }

    const [line] = logLines(service, 'unhandled promise rejection');
    expect(line).toMatchObject({ level: 50, process: app, err: { message: 'provoked rejection' } });
    expect(line.err?.stack).toMatch(/^Error: provoked rejection\n\s+at /);
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect((await fetch(`${service.url}/ready`)).status).toBe(200);
  }, 120_000);

  it('logs an uncaught exception with its stack, then exits with 1 for a clean restart', async () => {
    const service = await spawnWith(app, 'exception');
    started.push(service);
    const exited = new Promise<number | null>((resolve) =>
      service.child.once('close', (code) => resolve(code)),
    );

    service.child.kill('SIGWINCH');

    expect(await exited).toBe(1);
    const [line] = logLines(service, 'uncaught exception');
    expect(line).toMatchObject({
      level: 60,
      process: app,
      origin: 'uncaughtException',
      err: { message: 'provoked exception' },
    });
    expect(line.err?.stack).toMatch(/^Error: provoked exception\n\s+at /);
  }, 120_000);
});
