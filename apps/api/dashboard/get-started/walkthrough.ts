/**
 * The test-mode walkthrough "Get started" prints, filled in with the service's origin and the
 * partner's test key: the same steps as the README's, for curl and for the SDK. Never a secret:
 * the commands read it from `$SECRET` (docs/decisions.md, "Dashboard: Get started").
 */
export interface Walkthrough {
  /** Shell lines from a quote to a test swap, ending with the swap's page in the dashboard. */
  create: string;
  /** Shell lines that deposit to that swap and poll it until it is finished. */
  finish: string;
  /** The same in TypeScript with the SDK. */
  sdk: string;
  /** `listen`, forwarding the test events to a local receiver. */
  listen: string;
}

/** Reads one field of the JSON on stdin; any `node` will do, nothing else to install. */
function field(path: string): string {
  return `node -pe 'JSON.parse(require("fs").readFileSync(0,"utf8")).${path}'`;
}

const JSON_BODY = `-H 'Content-Type: application/json'`;

/** A word the shell reads as it is: bare when plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w.:/@%+[\]-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A TypeScript string literal of `value`. */
function tsString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** `origin`: where partners reach the service; `publicKey`: a `pk_test_` key of theirs. */
export function walkthrough(origin: string, publicKey: string): Walkthrough {
  const create = [
    `API=${shellWord(origin)}`,
    `AUTH="Authorization: Bearer ${publicKey}:\${SECRET:?first export SECRET=the secret of ${publicKey}}"`,
    '# 1. a quote',
    `curl -s -H "$AUTH" ${JSON_BODY} -d '{"from":"btc","to":"eth","amountFrom":"0.1"}' $API/v1/quotes; echo`,
    "# 2. a payout address from the address helper, checked like your users' addresses",
    `ADDRESS=$(curl -s -H "$AUTH" "$API/v1/test_helpers/addresses?currency=eth" | ${field('addresses[0]')})`,
    `curl -s -H "$AUTH" ${JSON_BODY} -d '{"currency":"eth","address":"'$ADDRESS'"}' $API/v1/addresses/validate; echo`,
    '# 3. the swap: its deposit address is payinAddress',
    `SWAP=$(curl -s -H "$AUTH" ${JSON_BODY} -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" -d '{"from":"btc","to":"eth","amountFrom":"0.1","address":"'$ADDRESS'"}' $API/v1/swaps | ${field('swap.id')})`,
    'echo "Swap $SWAP: $API/partner/swaps/$SWAP"',
  ].join('\n');
  const finish = [
    '# 4. the user "pays": the sandbox receives the expected amount',
    `curl -s -H "$AUTH" ${JSON_BODY} -d '{}' $API/v1/test_helpers/swaps/$SWAP/deposit; echo`,
    '# 5. poll, as your backend would, until the swap is finished',
    `while S=$(curl -s -H "$AUTH" $API/v1/swaps/$SWAP | ${field('swap.status')}); echo "$S"; [ "$S" != finished ]; do sleep 2; done`,
  ].join('\n');
  const sdk = [
    "import { SwapPartners } from 'swap-partners';",
    '',
    'const client = new SwapPartners({',
    `  baseUrl: ${tsString(origin)},`,
    `  credential: \`${publicKey}:\${process.env.SECRET}\`,`,
    '});',
    "const quote = await client.quotes.create({ from: 'btc', to: 'eth', amountFrom: '0.1' }); // 1",
    "const [address] = await client.testHelpers.addresses('eth'); // 2",
    "await client.addresses.validate({ currency: 'eth', address });",
    'const { from, to, amountFrom } = quote;',
    'const swap = await client.swaps.create({ from, to, amountFrom, address }); // 3, keyed for you',
    'await client.testHelpers.deposit(swap.id); // 4',
    "while ((await client.swaps.get(swap.id)).status !== 'finished') {",
    '  await new Promise((resolve) => setTimeout(resolve, 2000)); // 5',
    '}',
  ].join('\n');
  const listen = [
    `SWAP_PARTNERS_CREDENTIAL="${publicKey}:$SECRET" \\`,
    `  npx swap-partners listen --api ${shellWord(origin)} --forward-to http://localhost:8080/hooks`,
  ].join('\n');
  return { create, finish, sdk, listen };
}
