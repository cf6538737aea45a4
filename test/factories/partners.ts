import request from 'supertest';
import type { INestApplicationContext } from '@nestjs/common';
import { type CredentialMode, type OrganizationStatus } from '#app/domain';
import { OrganizationsService } from '#app/partners';
import { WidgetKeysService } from '#app/widgets';

export interface TestPartner {
  organizationId: string;
  publicKey: string;
  secret: string;
  /** The full `Authorization` header value. */
  authorization: string;
}

export interface PartnerOptions {
  status?: OrganizationStatus;
  feePercent?: string;
  providerActivated?: boolean;
  name?: string;
  /** The mode of the credential issued with it (live unless asked). */
  mode?: CredentialMode;
}

let sequence = 0;

/** The test's view of one issued credential of `organizationId`. */
function toTestPartner(
  organizationId: string,
  { publicKey, secret }: { publicKey: string; secret: string },
): TestPartner {
  return { organizationId, publicKey, secret, authorization: `Bearer ${publicKey}:${secret}` };
}

/**
 * An organization without a credential (active, fee 1 %, unless asked), made through the same
 * service the admin API uses; its id. For suites that issue keys themselves.
 */
export async function createOrganization(
  app: INestApplicationContext,
  options: Omit<PartnerOptions, 'mode'> = {},
): Promise<string> {
  sequence += 1;
  const organization = await app.get(OrganizationsService).create(
    {
      name: options.name ?? `Test org ${sequence}`,
      feePercent: options.feePercent ?? '1',
      status: options.status ?? 'active',
      providerActivated: options.providerActivated ?? true,
      payoutAddress: null,
      payoutNetwork: 'trc20',
    },
    'test',
  );
  return organization.id;
}

/** An organization with one credential, made through the same service the admin API uses. */
export async function createPartner(
  app: INestApplicationContext,
  options: PartnerOptions = {},
): Promise<TestPartner> {
  const organizationId = await createOrganization(app, options);
  return toTestPartner(
    organizationId,
    await app.get(OrganizationsService).issueCredential(organizationId, 'test', options.mode),
  );
}

/**
 * Another credential of `partner`'s organization: a rate-limit budget of its own, and the same
 * swaps when it is of the same mode.
 */
export async function issueCredential(
  app: INestApplicationContext,
  partner: TestPartner,
  mode: CredentialMode = 'live',
): Promise<TestPartner> {
  const issued = await app
    .get(OrganizationsService)
    .issueCredential(partner.organizationId, 'test', mode);
  return toTestPartner(partner.organizationId, issued);
}

/** The same, made over the admin API of an api at `url` (one running as a child process). */
export async function createPartnerOverHttp(
  url: string,
  adminToken: string,
  name = 'Partner over HTTP',
): Promise<TestPartner> {
  const admin = `Bearer ${adminToken}`;
  const organization = await request(url)
    .post('/admin/organizations')
    .set('Authorization', admin)
    .send({ name, feePercent: '1', status: 'active', providerActivated: true })
    .expect(201);
  const organizationId = (organization.body as { organization: { id: string } }).organization.id;
  const issued = await request(url)
    .post(`/admin/organizations/${organizationId}/credentials`)
    .set('Authorization', admin)
    .expect(201);
  const { credential } = issued.body as { credential: { publicKey: string; secret: string } };
  return toTestPartner(organizationId, credential);
}

/**
 * A widget key of `organizationId` (test mode, named "Shop", unless asked) for pages served from
 * `allowedOrigins`, made through the same service the admin API uses; the key.
 */
export async function createWidgetKey(
  app: INestApplicationContext,
  organizationId: string,
  allowedOrigins: string[],
  { mode = 'test', name = 'Shop' }: { mode?: CredentialMode; name?: string } = {},
): Promise<string> {
  const created = await app
    .get(WidgetKeysService)
    .create(organizationId, { mode, name, allowedOrigins }, 'test');
  return created.key;
}
