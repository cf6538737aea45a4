import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { signWebhook } from '#app/webhooks';
import { startHarness, type Harness } from './support/harness.js';
import { freePort, waitUntil } from './support/wait.js';

const ROOT = process.cwd();

/** The `js` block of the README's "Events and webhooks" section that verifies webhooks. */
async function readmeReceiver(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('Verify every request before trusting it'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) {
    throw new Error('README.md has no js receiver after "Verify every request before trusting it"');
  }
  return block[1];
}

/**
 * The README's sample webhook receiver, run exactly as printed (a partner copies it), fed by the
 * service: a ping from the api, the swap events delivered by a poller, and a few requests a
 * receiver must refuse or answer once.
 */
describe("The README's webhook receiver", () => {
  let h: Harness;
  let work: string;
  let receiver: ChildProcess;
  let printed = '';
  let receiverUrl: string;

  beforeAll(async () => {
    h = await startHarness({
      sandbox: { stepMs: 100 },
      partner: { mode: 'test' },
      localPoller: { POLL_INTERVAL_MS: '60000' },
    });
    work = await mkdtemp(join(tmpdir(), 'readme-receiver-'));
    // The receiver imports express and standardwebhooks as a partner's project would.
    await symlink(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
    await writeFile(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(work, 'receiver.js'), await readmeReceiver());
  }, 60_000);

  afterAll(async () => {
    if (receiver && receiver.exitCode === null) {
      const exited = new Promise((resolve) => receiver.once('exit', resolve));
      receiver.kill();
      await exited;
    }
    await rm(work, { recursive: true, force: true });
    await h?.close();
  });

  const lines = (): string[] => printed.split('\n').filter(Boolean);

  it('handles the ping and every swap event, refuses bad signatures and answers duplicates once', async () => {
    const { partner } = h;
    const call = (method: 'get' | 'post', path: string, body?: object) => {
      const req = request(h.api.url)[method](path).set('Authorization', partner.authorization);
      return body === undefined ? req : req.send(body);
    };
    // The endpoint is created first: its secret is what the receiver is started with.
    const port = await freePort();
    const created = await call('post', '/v1/webhook_endpoints', {
      url: `http://127.0.0.1:${port}/hooks/swaps`,
    }).expect(201);
    const endpoint = created.body.webhookEndpoint as { id: string; secret: string };
    await startReceiver(port, endpoint.secret);

    const ping = await call('post', `/v1/webhook_endpoints/${endpoint.id}/ping`, {}).expect(200);
    expect(ping.body.delivery.httpStatus).toBe(204);
    expect(lines()).toContain(`endpoint.ping ${endpoint.id}`);

    const addresses = await call('get', '/v1/test_helpers/addresses?currency=eth').expect(200);
    const swap = (
      await request(h.api.url)
        .post('/v1/swaps')
        .set('Authorization', partner.authorization)
        .set('Idempotency-Key', crypto.randomUUID())
        .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
        .expect(201)
    ).body.swap as { id: string };
    await call('post', `/v1/test_helpers/swaps/${swap.id}/status`, { status: 'failed' }).expect(
      200,
    );
    await waitUntil(
      'both swap events at the receiver',
      () => Promise.resolve(lines().filter((line) => line.includes(swap.id)).length === 2),
      20_000,
    );
    expect(lines()).toEqual(
      expect.arrayContaining([
        `swap.created ${swap.id} null -> waiting`,
        `swap.status_changed ${swap.id} waiting -> failed`,
      ]),
    );

    const [event] = (await call('get', `/v1/swaps/${swap.id}/events`).expect(200)).body.events as {
      id: string;
    }[];
    const body = JSON.stringify(event);
    const signed = signWebhook([endpoint.secret], event.id, Date.now() / 1000, body);
    const before = lines().length;
    // A redelivery of a handled event: 2xx, handled once.
    const again = await fetch(receiverUrl, {
      method: 'POST',
      headers: { ...signed, 'content-type': 'application/json' },
      body,
    });
    expect(again.status).toBe(204);
    // A forged signature and a stale timestamp: refused.
    const forged = await fetch(receiverUrl, {
      method: 'POST',
      headers: {
        ...signed,
        'webhook-signature': `v1,${'A'.repeat(44)}`,
        'content-type': 'application/json',
      },
      body,
    });
    expect(forged.status).toBe(400);
    const stale = signWebhook([endpoint.secret], 'evt_stale', Date.now() / 1000 - 3600, body);
    const old = await fetch(receiverUrl, {
      method: 'POST',
      headers: { ...stale, 'content-type': 'application/json' },
      body,
    });
    expect(old.status).toBe(400);
    // A type it does not know yet: acknowledged, so it is not retried for days.
    const future = JSON.stringify({ id: 'evt_future', type: 'swap.archived', data: {} });
    const unknown = await fetch(receiverUrl, {
      method: 'POST',
      headers: {
        ...signWebhook([endpoint.secret], 'evt_future', Date.now() / 1000, future),
        'content-type': 'application/json',
      },
      body: future,
    });
    expect(unknown.status).toBe(204);
    expect(lines().slice(before)).toEqual(['not handled yet swap.archived']);
  }, 60_000);

  async function startReceiver(port: number, secret: string): Promise<void> {
    receiverUrl = `http://127.0.0.1:${port}/hooks/swaps`;
    receiver = spawn(process.execPath, ['receiver.js'], {
      cwd: work,
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    receiver.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await waitUntil('the README receiver to listen', async () => {
      if (receiver.exitCode !== null) {
        throw new Error(`the receiver exited: ${printed}`);
      }
      const res = await fetch(receiverUrl, { method: 'POST' }).catch(() => null);
      return res?.status === 400;
    });
  }
});
