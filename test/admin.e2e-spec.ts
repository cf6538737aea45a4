import request from 'supertest';
import { TEST_ADMIN_TOKEN } from './support/api.js';
import { startHarness, type Harness } from './support/harness.js';

const ENVELOPE_KEYS = ['code', 'message', 'param', 'retry_after_ms', 'type', 'upstream_code'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ORGANIZATION_KEYS = [
  'createdAt',
  'feePercent',
  'id',
  'name',
  'payoutAddress',
  'payoutNetwork',
  'providerActivated',
  'status',
];
const UNKNOWN_UUID = '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
const UNKNOWN_PUBLIC_KEY = `pk_live_${'0'.repeat(32)}`;
const AUTH = `Bearer ${TEST_ADMIN_TOKEN}`;

interface ErrorBody {
  error: Record<string, unknown>;
}

function expectEnvelope(body: ErrorBody, type: string, code: string, param?: string): void {
  expect(Object.keys(body.error).sort()).toEqual(ENVELOPE_KEYS);
  expect(body.error).toMatchObject({ type, code });
  if (param !== undefined) {
    expect(body.error.param).toBe(param);
  }
}

describe('Admin API (over HTTP)', () => {
  let h: Harness;
  let testNumber = 0;
  let clientIp = '';

  // Each test calls from an address of its own, behind one trusted proxy hop: however fast the
  // machine, this suite never runs into the 120/s per-IP limit (the rate-limit suite tests that).
  beforeEach(() => {
    testNumber += 1;
    clientIp = `10.1.${testNumber >> 8}.${testNumber & 255}`;
  });

  function call(method: 'get' | 'post' | 'patch', path: string) {
    return request(h.api.url)[method](path).set('X-Forwarded-For', clientIp);
  }

  function admin() {
    return {
      get: (path: string) => call('get', path).set('Authorization', AUTH),
      post: (path: string) => call('post', path).set('Authorization', AUTH),
      patch: (path: string) => call('patch', path).set('Authorization', AUTH),
    };
  }

  async function createOrganization(body: Record<string, unknown> = {}): Promise<{ id: string }> {
    const res = await admin()
      .post('/admin/organizations')
      .send({ name: 'Acme Wallet', feePercent: '1.5', ...body })
      .expect(201);
    return res.body.organization as { id: string };
  }

  beforeAll(async () => {
    h = await startHarness({ api: { TRUST_PROXY_HOPS: '1' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('authentication', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a wrong admin token', 'Bearer wrong-admin-token-0123456789'],
      ['the admin token with a suffix', `Bearer ${TEST_ADMIN_TOKEN}x`],
      ['the admin token without the Bearer scheme', TEST_ADMIN_TOKEN],
      ['a partner-format bearer', `Bearer pk_live_${'a'.repeat(32)}:sk_live_${'b'.repeat(48)}`],
    ])('answers 401 unauthenticated for %s', async (_label, header) => {
      const req = call('get', '/admin/organizations');
      const res = await (header === undefined ? req : req.set('Authorization', header)).expect(401);
      expectEnvelope(res.body, 'authentication_error', 'unauthenticated');
    });

    it('refuses a real partner credential on /admin', async () => {
      const organization = await createOrganization({ status: 'active' });
      const issued = await admin()
        .post(`/admin/organizations/${organization.id}/credentials`)
        .expect(201);
      const { publicKey, secret } = issued.body.credential as { publicKey: string; secret: string };
      const res = await call('get', '/admin/organizations')
        .set('Authorization', `Bearer ${publicKey}:${secret}`)
        .expect(401);
      expectEnvelope(res.body, 'authentication_error', 'unauthenticated');
    });

    it('checks the token before validating the body', async () => {
      const res = await call('post', '/admin/organizations')
        .send({ feePercent: 'abc' })
        .expect(401);
      expectEnvelope(res.body, 'authentication_error', 'unauthenticated');
    });
  });

  describe('organizations', () => {
    it('creates an organization with the documented shape and defaults', async () => {
      const res = await admin()
        .post('/admin/organizations')
        .send({ name: 'Shape Co', feePercent: '2' })
        .expect(201);
      expect(Object.keys(res.body)).toEqual(['organization']);
      const { organization } = res.body;
      expect(Object.keys(organization).sort()).toEqual(ORGANIZATION_KEYS);
      expect(organization).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Shape Co',
        feePercent: '2',
        status: 'pending_review',
        providerActivated: false,
        payoutAddress: null,
        payoutNetwork: 'trc20',
        createdAt: expect.stringMatching(ISO),
      });
    });

    it('accepts status and providerActivated on creation', async () => {
      const res = await admin()
        .post('/admin/organizations')
        .send({ name: 'Live Co', feePercent: '0', status: 'active', providerActivated: true })
        .expect(201);
      expect(res.body.organization).toMatchObject({
        feePercent: '0',
        status: 'active',
        providerActivated: true,
      });
    });

    it.each([
      [1, '1'],
      [2.5, '2.5'],
      [4, '4'],
      ['3.10', '3.1'],
    ])('accepts feePercent %p and answers the decimal string %p', async (fee, expected) => {
      const res = await admin()
        .post('/admin/organizations')
        .send({ name: 'Fee Co', feePercent: fee })
        .expect(201);
      expect(res.body.organization.feePercent).toBe(expected);
    });

    it.each(['5', '-1', 'abc', '4.01', '', ' 1', '1e0', 4.5, -1, null, true])(
      'answers 400 invalid_request with param feePercent for %p',
      async (fee) => {
        const res = await admin()
          .post('/admin/organizations')
          .send({ name: 'Bad Fee Co', feePercent: fee })
          .expect(400);
        expectEnvelope(res.body, 'validation_error', 'invalid_request', 'feePercent');
      },
    );

    it('answers 400 with param feePercent when it is missing', async () => {
      const res = await admin()
        .post('/admin/organizations')
        .send({ name: 'No Fee Co' })
        .expect(400);
      expectEnvelope(res.body, 'validation_error', 'invalid_request', 'feePercent');
    });

    it('answers 400 naming an unknown field', async () => {
      const res = await admin()
        .post('/admin/organizations')
        .send({ name: 'Extra Co', feePercent: '1', plan: 'gold' })
        .expect(400);
      expectEnvelope(res.body, 'validation_error', 'invalid_request', 'plan');
    });

    it.each([
      ['name', { feePercent: '1' }],
      ['name', { name: '   ', feePercent: '1' }],
      ['status', { name: 'S Co', feePercent: '1', status: 'approved' }],
      ['providerActivated', { name: 'P Co', feePercent: '1', providerActivated: 'yes' }],
    ])('answers 400 with param %s for %j', async (param, body) => {
      const res = await admin().post('/admin/organizations').send(body).expect(400);
      expectEnvelope(res.body, 'validation_error', 'invalid_request', param);
    });

    it('answers a JSON body without a JSON content type with 415', async () => {
      const res = await admin()
        .post('/admin/organizations')
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(415);
      expectEnvelope(res.body, 'validation_error', 'unsupported_media_type');
    });

    it('lists and gets organizations', async () => {
      const created = await createOrganization({ name: 'Listed Co' });
      const list = await admin().get('/admin/organizations').expect(200);
      expect(Object.keys(list.body)).toEqual(['organizations']);
      const listed = (list.body.organizations as { id: string }[]).find((o) => o.id === created.id);
      expect(listed).toEqual(created);
      for (const organization of list.body.organizations as Record<string, unknown>[]) {
        expect(Object.keys(organization).sort()).toEqual(ORGANIZATION_KEYS);
      }
      const got = await admin().get(`/admin/organizations/${created.id}`).expect(200);
      expect(got.body).toEqual({ organization: created });
    });

    it.each([UNKNOWN_UUID, 'not-a-uuid', '123', UNKNOWN_UUID.replace(/-/g, '')])(
      'answers 404 not_found for organization id %s',
      async (id) => {
        const res = await admin().get(`/admin/organizations/${id}`).expect(404);
        expectEnvelope(res.body, 'not_found', 'not_found');
        const patched = await admin()
          .patch(`/admin/organizations/${id}`)
          .send({ status: 'active' })
          .expect(404);
        expectEnvelope(patched.body, 'not_found', 'not_found');
        const credentials = await admin().get(`/admin/organizations/${id}/credentials`).expect(404);
        expectEnvelope(credentials.body, 'not_found', 'not_found');
        const issued = await admin().post(`/admin/organizations/${id}/credentials`).expect(404);
        expectEnvelope(issued.body, 'not_found', 'not_found');
      },
    );

    it('updates every patchable field', async () => {
      const created = await createOrganization({ name: 'Patch Co' });
      const res = await admin()
        .patch(`/admin/organizations/${created.id}`)
        .send({
          status: 'active',
          feePercent: 3,
          providerActivated: true,
          payoutAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
          payoutNetwork: 'erc20',
        })
        .expect(200);
      expect(res.body).toEqual({
        organization: {
          ...created,
          status: 'active',
          feePercent: '3',
          providerActivated: true,
          payoutAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
          payoutNetwork: 'erc20',
        },
      });
      const got = await admin().get(`/admin/organizations/${created.id}`).expect(200);
      expect(got.body).toEqual(res.body);
    });

    it('changes only the fields sent, and clears the payout address with null', async () => {
      const created = await createOrganization({ name: 'Partial Co' });
      await admin()
        .patch(`/admin/organizations/${created.id}`)
        .send({ payoutAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' })
        .expect(200);
      const res = await admin()
        .patch(`/admin/organizations/${created.id}`)
        .send({ status: 'suspended', payoutAddress: null })
        .expect(200);
      expect(res.body.organization).toEqual({
        ...created,
        status: 'suspended',
        payoutAddress: null,
      });
    });

    it('reads null as absent on every optional field but payoutAddress, where null clears', async () => {
      const created = await createOrganization({
        name: 'Null Patch Co',
        status: null,
        providerActivated: null,
      });
      expect(created).toMatchObject({ status: 'pending_review', providerActivated: false });
      const res = await admin()
        .patch(`/admin/organizations/${created.id}`)
        .send({ status: null, feePercent: null, providerActivated: null, payoutNetwork: null })
        .expect(200);
      expect(res.body.organization).toEqual(created);
    });

    it('refuses a payout address that does not fit the payout network', async () => {
      const created = await createOrganization({ name: 'Wrong Chain Co' });
      const res = await admin()
        .patch(`/admin/organizations/${created.id}`)
        .send({ payoutAddress: '0x52908400098527886E0F7030069857D2E4169EE7' })
        .expect(400);
      expectEnvelope(res.body, 'validation_error', 'invalid_address', 'payoutAddress');
    });

    it.each([
      ['feePercent', { feePercent: '5' }],
      ['status', { status: 'approved' }],
      ['providerActivated', { providerActivated: 'true' }],
      ['payoutNetwork', { payoutNetwork: 'bep20' }],
      ['payoutAddress', { payoutAddress: 'has space' }],
      ['name', { name: 'Renamed' }],
    ])('answers 400 with param %s for the patch %j', async (param, body) => {
      const created = await createOrganization({ name: 'Bad Patch Co' });
      const res = await admin().patch(`/admin/organizations/${created.id}`).send(body).expect(400);
      expectEnvelope(res.body, 'validation_error', 'invalid_request', param);
    });
  });

  describe('credentials', () => {
    it('issues, lists, reveals and revokes a credential, all without a request body', async () => {
      const organization = await createOrganization({ name: 'Cred Co', status: 'active' });

      const issued = await admin()
        .post(`/admin/organizations/${organization.id}/credentials`)
        .expect(201);
      expect(issued.headers['cache-control']).toBe('no-store');
      expect(Object.keys(issued.body)).toEqual(['credential']);
      const credential = issued.body.credential as Record<string, string>;
      expect(Object.keys(credential).sort()).toEqual(['createdAt', 'mode', 'publicKey', 'secret']);
      expect(credential.mode).toBe('live');
      expect(credential.publicKey).toMatch(/^pk_live_[0-9a-f]{32}$/);
      expect(credential.secret).toMatch(/^sk_live_[0-9a-f]{48}$/);
      expect(credential.createdAt).toMatch(ISO);

      const listed = await admin()
        .get(`/admin/organizations/${organization.id}/credentials`)
        .expect(200);
      expect(listed.body).toEqual({
        credentials: [
          {
            publicKey: credential.publicKey,
            mode: 'live',
            createdAt: credential.createdAt,
            revokedAt: null,
          },
        ],
      });
      expect(JSON.stringify(listed.body)).not.toContain(credential.secret);

      const revealed = await admin()
        .post(`/admin/credentials/${credential.publicKey}/reveal`)
        .expect(200);
      expect(revealed.headers['cache-control']).toBe('no-store');
      expect(revealed.body).toEqual({
        credential: { publicKey: credential.publicKey, secret: credential.secret },
      });

      const revoked = await admin()
        .post(`/admin/credentials/${credential.publicKey}/revoke`)
        .expect(200);
      expect(revoked.body).toEqual({
        credential: {
          publicKey: credential.publicKey,
          mode: 'live',
          createdAt: credential.createdAt,
          revokedAt: expect.stringMatching(ISO),
        },
      });

      const again = await admin()
        .post(`/admin/credentials/${credential.publicKey}/revoke`)
        .expect(200);
      expect(again.body).toEqual(revoked.body);

      const afterRevoke = await admin()
        .get(`/admin/organizations/${organization.id}/credentials`)
        .expect(200);
      expect(afterRevoke.body.credentials).toEqual([revoked.body.credential]);
    });

    it('refuses to reveal a revoked credential: 409 conflict, nothing audited as revealed', async () => {
      const organization = await createOrganization({ name: 'Revoked Co', status: 'active' });
      const issued = await admin()
        .post(`/admin/organizations/${organization.id}/credentials`)
        .expect(201);
      const { publicKey, secret } = issued.body.credential as { publicKey: string; secret: string };
      await admin().post(`/admin/credentials/${publicKey}/revoke`).expect(200);

      const revealed = await admin().post(`/admin/credentials/${publicKey}/reveal`).expect(409);
      expectEnvelope(revealed.body, 'conflict', 'conflict');
      expect(JSON.stringify(revealed.body)).not.toContain(secret);
      const audit = await admin().get('/admin/audit?limit=1').expect(200);
      expect(audit.body.entries[0]).toMatchObject({
        action: 'credential.revoke',
        targetId: publicKey,
      });
    });

    it('answers an issue request sent with an empty JSON body too', async () => {
      const organization = await createOrganization({ name: 'Json Co' });
      await admin()
        .post(`/admin/organizations/${organization.id}/credentials`)
        .set('Content-Type', 'application/json')
        .send('{}')
        .expect(201);
    });

    it.each([UNKNOWN_PUBLIC_KEY, 'pk_live_nope', 'anything'])(
      'answers 404 not_found for the public key %s',
      async (publicKey) => {
        const revealed = await admin().post(`/admin/credentials/${publicKey}/reveal`).expect(404);
        expectEnvelope(revealed.body, 'not_found', 'not_found');
        const revoked = await admin().post(`/admin/credentials/${publicKey}/revoke`).expect(404);
        expectEnvelope(revoked.body, 'not_found', 'not_found');
      },
    );
  });

  describe('audit log', () => {
    it('records create, update, issue, reveal and revoke by the admin, newest first, without secrets', async () => {
      const organization = await createOrganization({ name: 'Audit Co' });
      await admin()
        .patch(`/admin/organizations/${organization.id}`)
        .send({ status: 'active' })
        .expect(200);
      const issued = await admin()
        .post(`/admin/organizations/${organization.id}/credentials`)
        .expect(201);
      const { publicKey, secret } = issued.body.credential as { publicKey: string; secret: string };
      await admin().post(`/admin/credentials/${publicKey}/reveal`).expect(200);
      await admin().post(`/admin/credentials/${publicKey}/revoke`).expect(200);

      const res = await admin().get('/admin/audit?limit=5').expect(200);
      expect(Object.keys(res.body)).toEqual(['entries']);
      const entries = res.body.entries as Record<string, unknown>[];
      expect(entries.map((e) => [e.action, e.targetId])).toEqual([
        ['credential.revoke', publicKey],
        ['credential.reveal', publicKey],
        ['credential.create', publicKey],
        ['organization.update', organization.id],
        ['organization.create', organization.id],
      ]);
      for (const entry of entries) {
        expect(Object.keys(entry).sort()).toEqual([
          'action',
          'actor',
          'createdAt',
          'details',
          'id',
          'targetId',
          'targetType',
        ]);
        expect(entry).toMatchObject({ actor: 'admin', createdAt: expect.stringMatching(ISO) });
        expect(typeof entry.id).toBe('string');
      }
      expect(entries[3].details).toEqual({ status: 'active' });

      const all = await admin().get('/admin/audit?limit=200').expect(200);
      expect(JSON.stringify(all.body)).not.toContain(secret);
      expect(JSON.stringify(all.body)).not.toContain(secret.slice('sk_live_'.length));
    });

    it('defaults to 50 entries', async () => {
      const res = await admin().get('/admin/audit').expect(200);
      expect((res.body.entries as unknown[]).length).toBeLessThanOrEqual(50);
      expect((res.body.entries as unknown[]).length).toBeGreaterThan(0);
    });

    it.each(['0', '201', 'abc', '1.5', '-1'])(
      'answers 400 with param limit for limit=%s',
      async (limit) => {
        const res = await admin().get(`/admin/audit?limit=${limit}`).expect(400);
        expectEnvelope(res.body, 'validation_error', 'invalid_request', 'limit');
      },
    );
  });
});
