import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createValidationPipe } from '#app/http';
import type { CredentialMode } from '#app/domain';
import { CreateInvitationInput } from '#app/accounts';
import { AuditQueryInput, CreateOrganizationInput, UpdateOrganizationInput } from '#app/partners';

/** A command line the CLI cannot run; printed as one line on stderr. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

export type CliCommand =
  | { name: 'help' }
  | { name: 'org:create'; organization: CreateOrganizationInput }
  | { name: 'org:list' }
  | { name: 'org:get'; id: string }
  | { name: 'org:update'; id: string; patch: UpdateOrganizationInput }
  | { name: 'credential:create'; organizationId: string; mode: CredentialMode }
  | { name: 'credential:list'; organizationId: string }
  | { name: 'credential:reveal'; publicKey: string }
  | { name: 'credential:revoke'; publicKey: string }
  | { name: 'audit'; limit: number }
  | { name: 'user:invite'; organizationId: string; invitation: CreateInvitationInput }
  | { name: 'user:list'; organizationId: string }
  | { name: 'user:disable'; userId: string }
  | {
      name: 'widget-key:create';
      organizationId: string;
      mode: CredentialMode;
      keyName: string | undefined;
      allowedOrigins: string[];
    }
  | { name: 'widget-key:list'; organizationId: string }
  | { name: 'widget-key:revoke'; key: string }
  | { name: 'provider:list' }
  | { name: 'provider:disable' | 'provider:enable'; id: string }
  | { name: 'swap:show'; id: string };

export const USAGE = `Usage: npm run admin -- <command> [options]

  org:create --name <name> --fee <0-4> [--status <status>] [--provider-activated]
  org:list
  org:get <organizationId>
  org:update <organizationId> [--status <status>] [--fee <0-4>] [--provider-activated true|false]
             [--payout-address <address>] [--payout-network trc20|erc20]
  credential:create <organizationId> [--test]
  credential:list <organizationId>
  credential:reveal <publicKey>
  credential:revoke <publicKey>
  audit [--limit <1-200>]
  user:invite <organizationId> <email> --role owner|developer|viewer
  user:list <organizationId>
  user:disable <userId>
  widget-key:create <organizationId> --name <name> --origin <origin> [--origin <origin>…] [--test]
  widget-key:list <organizationId>
  widget-key:revoke <widgetKey>
  provider:list
  provider:disable <provider>
  provider:enable <provider>
  swap:show <swapId>

Statuses: pending_review, active, suspended, rejected. --test issues a test-mode credential
(pk_test_…), which works against the sandbox provider while the organization is pending_review.
Results are JSON on stdout.
provider:* take the providers of PROVIDERS (as the api does); provider:disable takes one out of
routing on every api replica within 5 s, and refuses to take out the last one. swap:show reads any
organization's swap, with its provider.
Environment: DATABASE_URL, CREDENTIAL_ENCRYPTION_KEY, PROVIDERS [changelly], REDIS_URL (optional:
for immediate revocation, and for the circuits provider:list shows; without it they read closed).
user:invite queues the mail with the link (the poller sends it) and prints the link; the link
starts with PUBLIC_URL (default http://localhost:3000).
`;

type Options = NonNullable<ParseArgsConfig['options']>;

interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

function parse(args: string[], options: Options, positionals: string[]): Parsed {
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true }) as Parsed;
  } catch (error: unknown) {
    throw new CliUsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals.length) {
    const expected = positionals.length
      ? positionals.map((p) => `<${p}>`).join(' ')
      : 'no arguments';
    throw new CliUsageError(`Expected ${expected}.`);
  }
  return parsed;
}

function parseBooleanFlag(value: string | boolean | undefined): boolean | string | undefined {
  if (value === 'true') {
    return true;
  }
  if (value === 'false') {
    return false;
  }
  return value;
}

/** The admin API's input rules and validation pipe, so both surfaces accept exactly the same input. */
async function validated<T extends object>(
  metatype: new () => T,
  plain: Record<string, unknown>,
): Promise<T> {
  const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  return (await createValidationPipe().transform(defined, { type: 'body', metatype })) as T;
}

/** Parses and validates `npm run admin -- <command> …`; ids are checked when the command runs. */
export async function parseCommand(argv: string[]): Promise<CliCommand> {
  const [name, ...args] = argv;
  switch (name) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return { name: 'help' };
    case 'org:create': {
      const { values } = parse(
        args,
        {
          name: { type: 'string' },
          fee: { type: 'string' },
          status: { type: 'string' },
          'provider-activated': { type: 'boolean' },
        },
        [],
      );
      const organization = await validated(CreateOrganizationInput, {
        name: values.name,
        feePercent: values.fee,
        status: values.status,
        providerActivated: values['provider-activated'],
      });
      return { name, organization };
    }
    case 'org:update': {
      const { values, positionals } = parse(
        args,
        {
          status: { type: 'string' },
          fee: { type: 'string' },
          'provider-activated': { type: 'string' },
          'payout-address': { type: 'string' },
          'payout-network': { type: 'string' },
        },
        ['organizationId'],
      );
      const patch = await validated(UpdateOrganizationInput, {
        status: values.status,
        feePercent: values.fee,
        providerActivated: parseBooleanFlag(values['provider-activated']),
        payoutAddress: values['payout-address'],
        payoutNetwork: values['payout-network'],
      });
      return { name, id: positionals[0], patch };
    }
    case 'org:list':
      parse(args, {}, []);
      return { name };
    case 'org:get':
      return { name, id: parse(args, {}, ['organizationId']).positionals[0] };
    case 'credential:create': {
      const { values, positionals } = parse(args, { test: { type: 'boolean' } }, [
        'organizationId',
      ]);
      return { name, organizationId: positionals[0], mode: values.test ? 'test' : 'live' };
    }
    case 'credential:list':
      return { name, organizationId: parse(args, {}, ['organizationId']).positionals[0] };
    case 'credential:reveal':
    case 'credential:revoke':
      return { name, publicKey: parse(args, {}, ['publicKey']).positionals[0] };
    case 'audit': {
      const { values } = parse(args, { limit: { type: 'string' } }, []);
      const query = await validated(AuditQueryInput, { limit: values.limit });
      return { name, limit: query.limit };
    }
    case 'user:invite': {
      const { values, positionals } = parse(args, { role: { type: 'string' } }, [
        'organizationId',
        'email',
      ]);
      const invitation = await validated(CreateInvitationInput, {
        email: positionals[1],
        role: values.role,
      });
      return { name, organizationId: positionals[0], invitation };
    }
    case 'user:list':
      return { name, organizationId: parse(args, {}, ['organizationId']).positionals[0] };
    case 'user:disable':
      return { name, userId: parse(args, {}, ['userId']).positionals[0] };
    case 'widget-key:create': {
      const { values, positionals } = parse(
        args,
        {
          name: { type: 'string' },
          origin: { type: 'string', multiple: true },
          test: { type: 'boolean' },
        },
        ['organizationId'],
      );
      const origins = values.origin as unknown;
      return {
        name,
        organizationId: positionals[0],
        mode: values.test ? 'test' : 'live',
        keyName: typeof values.name === 'string' ? values.name : undefined,
        allowedOrigins: Array.isArray(origins) ? origins.map(String) : [],
      };
    }
    case 'widget-key:list':
      return { name, organizationId: parse(args, {}, ['organizationId']).positionals[0] };
    case 'widget-key:revoke':
      return { name, key: parse(args, {}, ['widgetKey']).positionals[0] };
    case 'provider:list':
      parse(args, {}, []);
      return { name };
    case 'provider:disable':
    case 'provider:enable':
      return { name, id: parse(args, {}, ['provider']).positionals[0] };
    case 'swap:show':
      return { name, id: parse(args, {}, ['swapId']).positionals[0] };
    default:
      throw new CliUsageError(`Unknown command '${name}'. Run 'npm run admin -- help'.`);
  }
}
