import { ChildProcess, spawn } from 'node:child_process';
import request from 'supertest';
import { createPartner, TestPartner } from './factories/partners.js';
import { startTestApi, TEST_ADMIN_TOKEN, testApiEnv, TestApi } from './support/api.js';
import { truncateAll } from './support/database.js';
import { freePort, waitUntil } from './support/wait.js';

describe('Credential revocation across api processes', () => {
  let local: TestApi;
  let remote: ChildProcess;
  let remoteUrl: string;
  let logs = '';
  let partner: TestPartner;

  beforeAll(async () => {
    await truncateAll();
    local = await startTestApi();
    const port = await freePort();
    remoteUrl = `http://127.0.0.1:${port}`;
    remote = spawn(process.execPath, ['dist/apps/api/main.js'], {
      env: { ...testApiEnv({ PORT: String(port), LOG_LEVEL: 'debug' }), PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    remote.stdout?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    remote.stderr?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    await waitUntil(
      'the spawned api to answer /health',
      async () => {
        const res = await fetch(`${remoteUrl}/health`).catch(() => null);
        return res?.status === 200;
      },
      20_000,
    );
    partner = await createPartner(local.app);
  });

  afterAll(async () => {
    remote.kill('SIGTERM');
    await new Promise((resolve) => remote.once('exit', resolve));
    await local.close();
  });

  it('answers 401 on the other process within 5 s of a revoke', async () => {
    await request(remoteUrl)
      .get('/v1/currencies?lite=true')
      .set('Authorization', partner.authorization)
      .expect((res) => {
        expect(res.status).not.toBe(401);
      });
    await request(local.url)
      .post(`/admin/credentials/${partner.publicKey}/revoke`)
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    const elapsed = await waitUntil(
      'the revocation to reach the other process',
      async () => {
        const res = await request(remoteUrl)
          .get('/v1/currencies?lite=true')
          .set('Authorization', partner.authorization);
        return res.status === 401;
      },
      5000,
    );
    expect(elapsed).toBeLessThan(5000);
    const res = await request(remoteUrl)
      .get('/v1/currencies')
      .set('Authorization', partner.authorization)
      .expect(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
  });

  it('never writes the secret or the full bearer to its logs', () => {
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('"requestId"');
    expect(logs).not.toContain(partner.secret);
    expect(logs).not.toContain(partner.authorization);
    expect(logs).not.toContain(TEST_ADMIN_TOKEN);
  });
});
