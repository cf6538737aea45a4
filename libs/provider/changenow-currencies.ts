import type { Chain } from '#app/chains';

/**
 * What the service knows of each ChangeNOW currency (docs/decisions.md, "The ChangeNOW wire
 * protocol"): ChangeNOW names a currency by ticker and network and publishes neither the chain's
 * name as the service spells it, nor decimals, nor confirmations. A currency not in this table is
 * not offered: its addresses could not be checked strictly.
 */
export interface ChangeNowCurrencyFacts {
  /** The service's canonical ticker (the one Changelly's catalogue uses). */
  ticker: string;
  blockchain: Chain;
  precision: number;
  payinConfirmations: number;
}

/** ChangeNOW's side of a canonical currency. */
export interface ChangeNowSymbol {
  ticker: string;
  network: string;
}

/** ChangeNOW ticker, network, canonical ticker, chain, decimals, confirmations. */
type Row = [string, string, string, Chain, number, number];

const ROWS: readonly Row[] = [
  ['btc', 'btc', 'btc', 'bitcoin', 8, 2],
  ['eth', 'eth', 'eth', 'ethereum', 18, 12],
  ['ltc', 'ltc', 'ltc', 'litecoin', 8, 6],
  ['bch', 'bch', 'bch', 'bitcoin_cash', 8, 6],
  ['doge', 'doge', 'doge', 'doge', 8, 10],
  ['trx', 'trx', 'trx', 'tron', 6, 20],
  ['sol', 'sol', 'sol', 'solana', 9, 1],
  ['ada', 'ada', 'ada', 'cardano', 6, 15],
  ['usdt', 'trx', 'usdtrx', 'tron', 6, 20],
  ['usdt', 'eth', 'usdt20', 'ethereum', 6, 12],
  ['usdc', 'eth', 'usdc', 'ethereum', 6, 12],
  ['dai', 'eth', 'dai', 'ethereum', 18, 12],
  ['link', 'eth', 'link', 'ethereum', 18, 12],
  ['bnb', 'bsc', 'bnbbsc', 'binance_smart_chain', 18, 15],
  ['pol', 'matic', 'pol', 'polygon', 18, 128],
  ['xrp', 'xrp', 'xrp', 'ripple', 6, 1],
  ['xlm', 'xlm', 'xlm', 'stellar', 7, 1],
  ['dash', 'dash', 'dash', 'dash', 8, 6],
  ['etc', 'etc', 'etc', 'ethereum_classic', 18, 500],
];

const FACTS = ROWS.map(([ticker, network, canonical, blockchain, precision, confirmations]) => ({
  ticker,
  network,
  facts: { ticker: canonical, blockchain, precision, payinConfirmations: confirmations },
}));

const BY_SYMBOL = new Map(FACTS.map((entry) => [`${entry.ticker}/${entry.network}`, entry.facts]));
const BY_CANONICAL = new Map(
  FACTS.map((entry) => [entry.facts.ticker, { ticker: entry.ticker, network: entry.network }]),
);

/** The facts of ChangeNOW's `ticker` on `network`; null for a currency the service does not know. */
export function changeNowFacts(ticker: string, network: string): ChangeNowCurrencyFacts | null {
  return BY_SYMBOL.get(`${ticker.toLowerCase()}/${network.toLowerCase()}`) ?? null;
}

/** ChangeNOW's ticker and network for a canonical ticker; null when it has none. */
export function changeNowSymbol(canonical: string): ChangeNowSymbol | null {
  return BY_CANONICAL.get(canonical) ?? null;
}
