#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { listen } from './listen.js';

const USAGE = `Usage: swap-partners listen --forward-to <url> [options]

Reads your event feed and forwards each new event to a local URL, signed like a webhook.

  --forward-to <url>   where to POST each event (e.g. http://localhost:8080/hooks)
  --api <url>          the API (default $SWAP_PARTNERS_API or http://127.0.0.1:3000)
  --credential <pk:sk> default $SWAP_PARTNERS_CREDENTIAL (a test or a live credential)
  --secret <whsec_…>   signing secret (default $SWAP_PARTNERS_WEBHOOK_SECRET, else a new one, printed)
  --after <evt_…>      forward from after this event instead of from now
  --interval <ms>      how often to read the feed once caught up (default 1000)
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'forward-to': { type: 'string' },
      api: { type: 'string' },
      credential: { type: 'string' },
      secret: { type: 'string' },
      after: { type: 'string' },
      interval: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals[0] !== 'listen') {
    fail(`Unknown command: ${positionals[0] ?? '(none)'}`);
  }
  const forwardTo = values['forward-to'] ?? fail('--forward-to is required.');
  const credential =
    values.credential ?? process.env.SWAP_PARTNERS_CREDENTIAL ?? fail('A credential is required.');
  const secret =
    values.secret ??
    process.env.SWAP_PARTNERS_WEBHOOK_SECRET ??
    `whsec_${randomBytes(32).toString('base64')}`;
  if (!values.secret && !process.env.SWAP_PARTNERS_WEBHOOK_SECRET) {
    process.stdout.write(`Signing with ${secret} (verify with it in your receiver)\n`);
  }
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  await listen({
    baseUrl: values.api ?? process.env.SWAP_PARTNERS_API ?? 'http://127.0.0.1:3000',
    credential,
    forwardTo,
    secret,
    after: values.after,
    intervalMs: values.interval ? Number(values.interval) : undefined,
    signal: controller.signal,
    log: (line) => process.stdout.write(`${line}\n`),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
