import type { INestApplicationContext } from '@nestjs/common';
import { OrganizationsService } from '#app/partners';

export const DEMO_ORGANIZATION_NAME = 'Demo organization';
const SEED_ACTOR = 'embedded-seed';

export interface DemoCredential {
  organizationId: string;
  publicKey: string;
  secret: string;
  created: boolean;
}

/** Seeds one active demo organization with a credential on the first start; later starts reuse it. */
export async function ensureDemoOrganization(
  app: INestApplicationContext,
): Promise<DemoCredential> {
  const organizations = app.get(OrganizationsService);
  const existing = await organizations.findByName(DEMO_ORGANIZATION_NAME);
  if (existing) {
    const [credential] = (await organizations.listCredentials(existing.id)).filter(
      (c) => !c.revokedAt,
    );
    if (credential) {
      const revealed = await organizations.revealCredential(credential.publicKey, SEED_ACTOR);
      return { organizationId: existing.id, ...revealed, created: false };
    }
    const issued = await organizations.issueCredential(existing.id, SEED_ACTOR);
    return { organizationId: existing.id, ...issued, created: false };
  }
  const organization = await organizations.create(
    {
      name: DEMO_ORGANIZATION_NAME,
      feePercent: '1',
      status: 'active',
      providerActivated: true,
      payoutAddress: null,
      payoutNetwork: 'trc20',
    },
    SEED_ACTOR,
  );
  const issued = await organizations.issueCredential(organization.id, SEED_ACTOR);
  return {
    organizationId: organization.id,
    publicKey: issued.publicKey,
    secret: issued.secret,
    created: true,
  };
}

/** The copy-paste walkthrough printed at start. */
export function demoBanner(baseUrl: string, demo: DemoCredential, adminToken: string): string {
  const auth = `-H 'Authorization: Bearer ${demo.publicKey}:${demo.secret}'`;
  return [
    '',
    'Swap Partners API is running (embedded mode).',
    `  API:          ${baseUrl}`,
    `  Demo org:     ${demo.organizationId}${demo.created ? ' (created now)' : ''}`,
    `  Credential:   ${demo.publicKey}:${demo.secret}`,
    `  Admin token:  ${adminToken}`,
    '',
    'Try the typical flow:',
    `  curl -s ${baseUrl}/health`,
    `  curl -s ${auth} ${baseUrl}/v1/currencies?lite=true`,
    `  curl -s ${auth} -H 'Content-Type: application/json' -d '{"from":"btc","to":"eth","amountFrom":"0.1"}' ${baseUrl}/v1/quotes`,
    `  curl -s ${auth} -H 'Content-Type: application/json' -H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" \\`,
    `       -d '{"from":"btc","to":"eth","amountFrom":"0.1","address":"<eth address>"}' ${baseUrl}/v1/swaps`,
    `  curl -s ${auth} ${baseUrl}/v1/swaps`,
    '',
  ].join('\n');
}
