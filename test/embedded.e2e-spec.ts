import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WALKTHROUGH_HEADING } from '../apps/embedded/demo-seed.js';
import { DashboardClient } from './support/dashboard.js';
import { freePort, waitUntil } from './support/wait.js';

const run = promisify(execFile);

/**
 * The local addresses the kernel has listening TCP sockets on for `port` (Linux `/proc/net`),
 * as `127.0.0.1`, `0.0.0.0`, or a hex IPv6 address.
 */
async function listeningAddresses(port: number): Promise<string[]> {
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8')).trim().split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hex, portHex] = local.split(':');
      if (state === '0A' && parseInt(portHex, 16) === port) {
        addresses.push(
          hex.length === 8
            ? (hex.match(/../g) ?? [])
                .reverse()
                .map((byte) => parseInt(byte, 16))
                .join('.')
            : hex,
        );
      }
    }
  }
  return addresses;
}

/** The walkthrough as printed: the indented lines under its heading, up to the blank line. */
function printedWalkthrough(output: string): string {
  const start = output.indexOf(WALKTHROUGH_HEADING);
  expect(start).toBeGreaterThanOrEqual(0);
  const lines = output.slice(start).split('\n').slice(1);
  const end = lines.findIndex((line) => line.trim() === '');
  return lines
    .slice(0, end)
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}

/** `npm start` as a person runs it: the embedded start in a terminal's process group. */
describe('Embedded start (npm start)', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';
  let apiUrl: string;
  let ports: { api: number; poller: number; sandbox: number };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'embedded-start-'));
    // Like a checkout's `.data`: the database server's own user must be able to reach it.
    await chmod(dataDir, 0o755);
    const [port, pollerPort, sandboxPort, postgresPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    apiUrl = `http://127.0.0.1:${port}`;
    ports = { api: port, poller: pollerPort, sandbox: sandboxPort };
    // A group of its own, like the foreground job of a terminal: Ctrl-C signals the whole group.
    child = spawn(process.execPath, ['dist/apps/embedded/main.js'], {
      detached: true,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: String(port),
        POLLER_HEALTH_PORT: String(pollerPort),
        SANDBOX_PORT: String(sandboxPort),
        EMBEDDED_POSTGRES_PORT: String(postgresPort),
        // Short lifecycle steps, so the walkthrough's swap finishes in seconds.
        SANDBOX_STEP_MS: '300',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntil(
      'the embedded start to answer /health',
      async () => {
        if (child.exitCode !== null) {
          throw new Error(`the embedded start exited: ${output.slice(-2000)}`);
        }
        const res = await fetch(`${apiUrl}/health`).catch(() => null);
        return res?.status === 200 && ((await res.json()) as { db: string }).db === 'up';
      },
      90_000,
      200,
    );
  }, 120_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGKILL');
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints a test-mode walkthrough that, pasted as is, takes a swap to finished', async () => {
    await waitUntil(
      'the walkthrough to be printed',
      () => Promise.resolve(output.includes(WALKTHROUGH_HEADING)),
      30_000,
      100,
    );
    const walkthrough = printedWalkthrough(output);
    expect(walkthrough).toContain('pk_test_');
    expect(walkthrough).not.toMatch(/<[a-z ]+>/);
    const { stdout, stderr } = await run('bash', ['-c', walkthrough], {
      timeout: 60_000,
      env: { PATH: process.env.PATH },
    });
    process.stdout.write(`walkthrough transcript:\n${stdout}${stderr}\n`);
    expect(stdout.trim().split('\n').at(-1)).toBe('finished');
    expect(stdout).toContain('"valid":true');
    expect(stdout).toContain('"livemode":false');
  }, 90_000);

  it('listens on 127.0.0.1 only, as its banner says, since the banner prints secrets', async () => {
    await waitUntil(
      'the banner',
      () => Promise.resolve(output.includes(WALKTHROUGH_HEADING)),
      30_000,
      100,
    );
    expect(await listeningAddresses(ports.api)).toEqual(['127.0.0.1']);
    expect(await listeningAddresses(ports.poller)).toEqual(['127.0.0.1']);
    expect(output).toContain(`API:              http://127.0.0.1:${ports.api}`);
    expect(output).toContain('Listening on:     127.0.0.1 only');
  });

  it('starts the sandbox serving both providers, ChangeNOW behind a key of its own', async () => {
    const changelly = await fetch(`http://127.0.0.1:${ports.sandbox}/v2`, { method: 'POST' });
    const changenow = await fetch(
      `http://127.0.0.1:${ports.sandbox}/changenow/v2/exchange/currencies?active=true`,
    );

    expect(changelly.status).toBe(401);
    expect(changenow.status).toBe(401);
    expect(await changenow.json()).toEqual({ error: 'unauthorized', message: 'Invalid api key' });
  });

  it('prints the dashboard address and a demo owner who signs in to the demo organization', async () => {
    const dashboard = /Dashboard: +(\S+)/.exec(output)?.[1];
    const owner = /Demo owner: +(\S+) +password: (\S+)/.exec(output);
    expect(dashboard).toBe(`http://localhost:${new URL(apiUrl).port}/partner`);
    expect(owner).not.toBeNull();
    const client = new DashboardClient(apiUrl);
    await client.signIn(owner![1], owner![2]);
    const overview = await client.get('/partner');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Demo organization');
    expect(output).toContain(owner![2]);
    expect(readFileSync(join(dataDir, 'dashboard-demo-owner.json'), 'utf8')).toContain(owner![2]);
  });

  it('prints a test widget key and a local page that embeds it', async () => {
    await waitUntil(
      'the widget demo to be printed',
      () => Promise.resolve(/Demo page: +http:\/\/\S+/.test(output)),
      30_000,
      100,
    );
    const key = /Test widget key: +(wk_test_[0-9a-f]{32})/.exec(output)?.[1];
    const pageUrl = /Demo page: +(http:\/\/\S+)/.exec(output)?.[1];
    expect(key).toBeDefined();
    const page = await (await fetch(pageUrl!)).text();
    const widget = await fetch(`${apiUrl}/widget?key=${key}`);

    expect(page).toContain(`data-key="${key}"`);
    expect(page).toContain(`${apiUrl}/widget.js`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-security-policy')).toContain(
      `frame-ancestors ${new URL(pageUrl!).origin}`,
    );
  }, 60_000);

  it('stops cleanly on Ctrl-C: apps first, the database last, no error logged', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGINT');

    expect(await exited).toBe(0);
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['shutting down', 'poller stopped']),
    );
    // PostgreSQL removes its pid file once it has shut down.
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 30_000);
});
