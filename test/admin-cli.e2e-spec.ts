import { jest } from '@jest/globals';
import { testApiEnv } from './support/api.js';
import { admin, adminInProcess, CLI_RUN_MS, type CliResult, runCli } from './support/cli.js';

/** The most commands one test below runs (the credential lifecycle). */
const MOST_COMMANDS_PER_TEST = 8;

type Organization = Record<string, unknown> & { id: string };
type Credential = Record<string, unknown> & {
  publicKey: string;
  secret: string;
  createdAt: string;
};

/** The union of the result shapes, which mirror the admin API's response bodies. */
interface CliOutput {
  organization: Organization;
  organizations: Organization[];
  credential: Credential;
  credentials: Record<string, unknown>[];
  entries: Record<string, unknown>[];
}

/** The command's JSON result, once it exited 0 with nothing on stderr. */
function parsed(result: CliResult): CliOutput {
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as CliOutput;
}

/**
 * Most commands run in this process through the CLI's entry function, which the built CLI's main
 * only calls and exits with; a few run the built CLI itself, to show what the process adds.
 */
async function adminJson(...args: string[]): Promise<CliOutput> {
  return parsed(await adminInProcess(...args));
}

describe('Admin CLI (against the test database)', () => {
  jest.setTimeout(MOST_COMMANDS_PER_TEST * CLI_RUN_MS);

  // Several commands in a row, each booting Nest, one of them a process: seconds on a busy machine.
  it('creates an organization, issues, reveals and revokes a credential, and audits it as cli', async () => {
    const created = await adminJson(
      'org:create',
      '--name',
      'Cli Co',
      '--fee',
      '1.50',
      '--status',
      'active',
      '--provider-activated',
    );
    expect(created.organization).toEqual({
      id: expect.any(String),
      name: 'Cli Co',
      feePercent: '1.5',
      status: 'active',
      providerActivated: true,
      payoutAddress: null,
      payoutNetwork: 'trc20',
      createdAt: expect.any(String),
    });
    const organizationId = created.organization.id;

    const issued = await adminJson('credential:create', organizationId);
    expect(issued.credential).toEqual({
      publicKey: expect.stringMatching(/^pk_live_[0-9a-f]{32}$/),
      secret: expect.stringMatching(/^sk_live_[0-9a-f]{48}$/),
      mode: 'live',
      createdAt: expect.any(String),
    });
    const { publicKey, secret } = issued.credential;

    const revealed = await adminJson('credential:reveal', publicKey);
    expect(revealed).toEqual({ credential: { publicKey, secret } });

    const revoked = await adminJson('credential:revoke', publicKey);
    expect(revoked).toEqual({
      credential: {
        publicKey,
        mode: 'live',
        createdAt: issued.credential.createdAt,
        revokedAt: expect.any(String),
      },
    });

    const listed = await adminJson('credential:list', organizationId);
    expect(listed).toEqual({ credentials: [revoked.credential] });

    const test = await adminJson('credential:create', organizationId, '--test');
    expect(test.credential).toEqual({
      publicKey: expect.stringMatching(/^pk_test_[0-9a-f]{32}$/),
      secret: expect.stringMatching(/^sk_test_[0-9a-f]{48}$/),
      mode: 'test',
      createdAt: expect.any(String),
    });
    await adminJson('credential:revoke', test.credential.publicKey);

    // The built CLI, as an operator runs it, reads what the commands above wrote.
    const audit = parsed(await admin('audit', '--limit', '6'));
    expect(audit.entries.map((e) => [e.actor, e.action])).toEqual([
      ['cli', 'credential.revoke'],
      ['cli', 'credential.create'],
      ['cli', 'credential.revoke'],
      ['cli', 'credential.reveal'],
      ['cli', 'credential.create'],
      ['cli', 'organization.create'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('gets, lists and updates organizations', async () => {
    const created = await adminJson('org:create', '--name', 'Update Co', '--fee', '2');
    const id = created.organization.id;
    expect(created.organization).toMatchObject({
      status: 'pending_review',
      providerActivated: false,
    });

    const updated = await adminJson(
      'org:update',
      id,
      '--status',
      'active',
      '--fee',
      '3',
      '--provider-activated',
      'true',
      '--payout-network',
      'erc20',
      '--payout-address',
      '0x52908400098527886E0F7030069857D2E4169EE7',
    );
    expect(updated.organization).toEqual({
      ...created.organization,
      status: 'active',
      feePercent: '3',
      providerActivated: true,
      payoutNetwork: 'erc20',
      payoutAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    expect(await adminJson('org:get', id)).toEqual(updated);
    const listed = await adminJson('org:list');
    expect(listed.organizations).toContainEqual(updated.organization);
  });

  it.each([
    [['org:create', '--name', 'Bad Co', '--fee', '5'], /^invalid_request: .*\(param feePercent\)$/],
    [['org:create', '--fee', '1'], /\(param name\)$/],
    [
      ['org:update', '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f', '--provider-activated', 'maybe'],
      /\(param providerActivated\)$/,
    ],
    [['org:get', 'not-a-uuid'], /^not_found: Organization not found\.$/],
    [['org:get', '6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f'], /^not_found: Organization not found\.$/],
    [['credential:reveal', `pk_live_${'0'.repeat(32)}`], /^not_found: Credential not found\.$/],
    [['credential:revoke', 'nope'], /^not_found: Credential not found\.$/],
    [['org:get'], /organizationId/],
    [['org:create', '--name', 'X', '--fee', '1', '--colour', 'red'], /colour/],
    [['audit', '--limit', '0'], /\(param limit\)$/],
    [['frobnicate'], /Unknown command 'frobnicate'/],
  ])('fails %j with one line on stderr and exit code 1', async (args, message) => {
    const result = await adminInProcess(...args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it('prints usage for help without needing any configuration', async () => {
    const { stdout, stderr } = await runCli(['help'], {});
    expect(stderr).toBe('');
    expect(stdout).toContain('org:create --name <name> --fee <0-4>');
  });

  it('stops with one line naming a missing CREDENTIAL_ENCRYPTION_KEY', async () => {
    const result = await runCli(['org:list'], testApiEnv({ CREDENTIAL_ENCRYPTION_KEY: undefined }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('CREDENTIAL_ENCRYPTION_KEY'),
    ]);
  });
});
