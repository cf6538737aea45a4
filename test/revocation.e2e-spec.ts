import request from 'supertest';
import { RedisStore } from '#app/redis';
import { TEST_ADMIN_TOKEN, testApiEnv } from './support/api.js';
import { testRedisPrefix, testRedisUrl } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';
import { spawnService, type ServiceProcess } from './support/processes.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { waitUntil } from './support/wait.js';

describe('Credential revocation across api processes', () => {
  let h: Harness;
  let remote: ServiceProcess;

  beforeAll(async () => {
    h = await startHarness();
    remote = await spawnService('api', testApiEnv({ LOG_LEVEL: 'debug' }));
  }, 120_000);

  afterAll(async () => {
    await remote?.stop();
    await h?.close();
  });

  it('answers 401 on the other process within 5 s of a revoke', async () => {
    await request(remote.url)
      .get('/v1/currencies?lite=true')
      .set('Authorization', h.partner.authorization)
      .expect((res) => {
        expect(res.status).not.toBe(401);
      });
    await request(h.api.url)
      .post(`/admin/credentials/${h.partner.publicKey}/revoke`)
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    const elapsed = await waitUntil(
      'the revocation to reach the other process',
      async () => {
        const res = await request(remote.url)
          .get('/v1/currencies?lite=true')
          .set('Authorization', h.partner.authorization);
        return res.status === 401;
      },
      5000,
    );
    expect(elapsed).toBeLessThan(5000);
    const res = await request(remote.url)
      .get('/v1/currencies')
      .set('Authorization', h.partner.authorization)
      .expect(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
  });

  it('never writes the secret or the full bearer to its logs', () => {
    const logs = remote.output();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('"requestId"');
    expect(logs).not.toContain(h.partner.secret);
    expect(logs).not.toContain(h.partner.authorization);
    expect(logs).not.toContain(TEST_ADMIN_TOKEN);
  });
});

describe('Revocation fan-out on a process that starts while Redis is unreachable', () => {
  it('does not hold the start up, and hears revocations once Redis answers', async () => {
    const redis = new URL(testRedisUrl());
    const proxy = await TcpProxy.start(redis.hostname, Number(redis.port || 6379));
    proxy.cut();
    const prefix = `${testRedisPrefix()}fan-out:`;
    const cutOff = new RedisStore(`redis://127.0.0.1:${proxy.port}`, prefix);
    const reachable = new RedisStore(testRedisUrl(), prefix);
    const heard: string[] = [];
    try {
      const started = performance.now();
      await cutOff.subscribe('revoked', (publicKey) => heard.push(publicKey));
      const waitedMs = performance.now() - started;
      proxy.restore();
      await waitUntil(
        'the revocation to reach the process that started cut off',
        async () => {
          await reachable.publish('revoked', 'pk_live_revoked');
          return heard.length > 0;
        },
        20_000,
        250,
      );

      // About a second; it waited for ioredis' 20 retries (some 11 s), then gave up for good.
      expect(waitedMs).toBeLessThan(5000);
      expect(heard[0]).toBe('pk_live_revoked');
    } finally {
      await cutOff.close();
      await reachable.close();
      await proxy.close();
    }
  }, 60_000);
});
