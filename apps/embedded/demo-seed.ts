import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { DashboardAccountsService } from '#app/accounts';
import type { CredentialMode } from '#app/domain';
import { OrganizationsService } from '#app/partners';

export const DEMO_ORGANIZATION_NAME = 'Demo organization';
const SEED_ACTOR = 'embedded-seed';

export interface DemoKey {
  publicKey: string;
  secret: string;
}

export interface DemoOrganization {
  organizationId: string;
  live: DemoKey;
  test: DemoKey;
  created: boolean;
}

/**
 * Seeds one active demo organization with a live and a test credential on the first start;
 * later starts reuse them (and issue whichever one was revoked since).
 */
export async function ensureDemoOrganization(
  app: INestApplicationContext,
): Promise<DemoOrganization> {
  const organizations = app.get(OrganizationsService);
  const existing = await organizations.findByName(DEMO_ORGANIZATION_NAME);
  const organization =
    existing ??
    (await organizations.create(
      {
        name: DEMO_ORGANIZATION_NAME,
        feePercent: '1',
        status: 'active',
        providerActivated: true,
        payoutAddress: null,
        payoutNetwork: 'trc20',
      },
      SEED_ACTOR,
    ));
  const usable = (await organizations.listCredentials(organization.id)).filter((c) => !c.revokedAt);
  const key = async (mode: CredentialMode): Promise<DemoKey> => {
    const credential = usable.find((c) => c.mode === mode);
    const { publicKey, secret } = credential
      ? await organizations.revealCredential(credential.publicKey, SEED_ACTOR)
      : await organizations.issueCredential(organization.id, SEED_ACTOR, mode);
    return { publicKey, secret };
  };
  return {
    organizationId: organization.id,
    live: await key('live'),
    test: await key('test'),
    created: !existing,
  };
}

/** The demo owner's sign-in for the partner dashboard. */
export interface DemoOwner {
  email: string;
  password: string;
}

export const DEMO_OWNER_EMAIL = 'demo-owner@example.com';

/**
 * The demo organization's dashboard owner: the password is generated on the first start and
 * kept under the data directory with the other secrets, so every start prints one that works.
 */
export async function ensureDemoOwner(
  app: INestApplicationContext,
  organizationId: string,
  dataDir: string,
): Promise<DemoOwner> {
  const file = join(dataDir, 'dashboard-demo-owner.json');
  let owner: DemoOwner;
  if (existsSync(file)) {
    owner = JSON.parse(readFileSync(file, 'utf8')) as DemoOwner;
  } else {
    owner = { email: DEMO_OWNER_EMAIL, password: `demo-${randomBytes(12).toString('hex')}` };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(owner, null, 2), { mode: 0o600 });
  }
  await app
    .get(DashboardAccountsService)
    .ensureUser({ organizationId, email: owner.email, role: 'owner', password: owner.password });
  return owner;
}

/** Marks the walkthrough's first line, so it can be found in the output (and tested). */
export const WALKTHROUGH_HEADING = 'Test mode walkthrough: paste these lines into a shell.';

/** Reads one field of the JSON on stdin; any `node` will do, nothing else to install. */
function field(path: string): string {
  return `node -pe 'JSON.parse(require("fs").readFileSync(0,"utf8")).${path}'`;
}

/**
 * The banner printed at start: where everything is, then a walkthrough that runs as pasted,
 * with the test credential, from a quote to a finished swap.
 */
export function demoBanner(
  baseUrl: string,
  demo: DemoOrganization,
  adminToken: string,
  owner?: { dashboardUrl: string } & DemoOwner,
): string {
  const json = `-H 'Content-Type: application/json'`;
  return [
    '',
    'Swap Partners API is running (embedded mode).',
    `  API:              ${baseUrl}   (reference: ${baseUrl}/docs)`,
    ...(owner
      ? [
          `  Dashboard:        ${owner.dashboardUrl}`,
          `  Demo owner:       ${owner.email}  password: ${owner.password}`,
        ]
      : []),
    `  Demo org:         ${demo.organizationId}${demo.created ? ' (created now)' : ''}`,
    `  Live credential:  ${demo.live.publicKey}:${demo.live.secret}`,
    `  Test credential:  ${demo.test.publicKey}:${demo.test.secret}`,
    `  Admin token:      ${adminToken}`,
    '',
    WALKTHROUGH_HEADING,
    `  API=${baseUrl}`,
    `  AUTH='Authorization: Bearer ${demo.test.publicKey}:${demo.test.secret}'`,
    `  curl -s -H "$AUTH" ${json} -d '{"from":"btc","to":"eth","amountFrom":"0.1"}' $API/v1/quotes; echo`,
    `  ADDRESS=$(curl -s -H "$AUTH" "$API/v1/test_helpers/addresses?currency=eth" | ${field('addresses[0]')})`,
    `  curl -s -H "$AUTH" ${json} -d '{"currency":"eth","address":"'$ADDRESS'"}' $API/v1/addresses/validate; echo`,
    `  SWAP=$(curl -s -H "$AUTH" ${json} -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" -d '{"from":"btc","to":"eth","amountFrom":"0.1","address":"'$ADDRESS'"}' $API/v1/swaps | ${field('swap.id')})`,
    `  curl -s -H "$AUTH" ${json} -d '{}' $API/v1/test_helpers/swaps/$SWAP/deposit; echo`,
    `  while S=$(curl -s -H "$AUTH" $API/v1/swaps/$SWAP | ${field('swap.status')}); echo "$S"; [ "$S" != finished ]; do sleep 2; done`,
    '',
  ].join('\n');
}
