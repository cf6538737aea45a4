import type { ProviderCurrency } from '#app/provider';

/** Common names partners send for a canonical ticker (docs/decisions.md, "Tickers and aliases"). */
const NAME_ALIASES: Record<string, string> = {
  bitcoin: 'btc',
  xbt: 'btc',
  ethereum: 'eth',
  ether: 'eth',
  litecoin: 'ltc',
  bitcoincash: 'bch',
  dogecoin: 'doge',
  tron: 'trx',
  solana: 'sol',
  cardano: 'ada',
};

/** Networks a token ticker may carry as a suffix, and the blockchains they name. */
const NETWORK_SUFFIXES: Record<string, RegExp> = {
  trc20: /^(tron|trx|trc20)$/i,
  erc20: /^(ethereum|eth|erc20)$/i,
  bep20: /^(bsc|binance_smart_chain|binancesmartchain|bep20)$/i,
};

const indexes = new WeakMap<readonly ProviderCurrency[], Map<string, ProviderCurrency>>();

function tickerIndex(currencies: readonly ProviderCurrency[]): Map<string, ProviderCurrency> {
  let index = indexes.get(currencies);
  if (!index) {
    index = new Map(currencies.map((c) => [c.ticker.toLowerCase(), c]));
    indexes.set(currencies, index);
  }
  return index;
}

function compact(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/**
 * Finds the canonical currency for what a partner sent: the ticker in any case, a common name,
 * or a token with its network (`USDT-TRC20`, `usdt_trc20`, `usdttrc20`).
 */
export function resolveCurrency(
  raw: string,
  currencies: readonly ProviderCurrency[],
): ProviderCurrency | null {
  const wanted = compact(raw);
  const byTicker = tickerIndex(currencies);
  const direct = byTicker.get(wanted) ?? byTicker.get(NAME_ALIASES[wanted] ?? '');
  if (direct) {
    return direct;
  }
  for (const [suffix, chain] of Object.entries(NETWORK_SUFFIXES)) {
    if (wanted.length > suffix.length && wanted.endsWith(suffix)) {
      const symbol = wanted.slice(0, -suffix.length);
      const match = currencies.find(
        (c) =>
          c.ticker.toLowerCase().startsWith(symbol) &&
          chain.test(c.blockchain.replace(/[\s-]/g, '')),
      );
      if (match) {
        return match;
      }
    }
  }
  return null;
}
