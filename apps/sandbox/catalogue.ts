import type { Chain } from '#app/chains';
import type { ProviderName } from '#app/domain';

/** How ChangeNOW names a currency: a ticker on a network. */
export interface ChangeNowName {
  ticker: string;
  network: string;
}

/** One currency the sandbox lists: its wire fields plus what pricing needs. */
export interface SandboxCurrency {
  ticker: string;
  fullName: string;
  blockchain: Chain;
  protocol: string;
  precision: number;
  /** Reference price in USD; the random walk moves around it. */
  usd: string;
  /** Outbound on-chain fee, in units of this currency. */
  networkFee: string;
  payinConfirmations: number;
  extraIdName: string | null;
  enabled: boolean;
  enabledFrom: boolean;
  enabledTo: boolean;
  fixRateEnabled: boolean;
  contractAddress?: string;
  /** Stablecoins do not walk. */
  stable?: boolean;
  /** The providers that list it: Changelly's catalogue and ChangeNOW's differ a little. */
  listedBy: readonly ProviderName[];
  /** Its name on ChangeNOW's side. */
  changenow: ChangeNowName;
}

type Defaulted =
  | 'enabled'
  | 'enabledFrom'
  | 'enabledTo'
  | 'fixRateEnabled'
  | 'extraIdName'
  | 'listedBy'
  | 'changenow';
type Entry = Omit<SandboxCurrency, Defaulted> & Partial<Pick<SandboxCurrency, Defaulted>>;

const ENTRIES: Entry[] = [
  {
    ticker: 'btc',
    fullName: 'Bitcoin',
    blockchain: 'bitcoin',
    protocol: 'BTC',
    precision: 8,
    usd: '65000',
    networkFee: '0.00002',
    payinConfirmations: 2,
  },
  {
    ticker: 'eth',
    fullName: 'Ethereum',
    blockchain: 'ethereum',
    protocol: 'ETH',
    precision: 18,
    usd: '3200',
    networkFee: '0.0006',
    payinConfirmations: 12,
  },
  {
    ticker: 'ltc',
    fullName: 'Litecoin',
    blockchain: 'litecoin',
    protocol: 'LTC',
    precision: 8,
    usd: '80',
    networkFee: '0.001',
    payinConfirmations: 6,
  },
  {
    ticker: 'bch',
    fullName: 'Bitcoin Cash',
    blockchain: 'bitcoin_cash',
    protocol: 'BCH',
    precision: 8,
    usd: '400',
    networkFee: '0.0005',
    payinConfirmations: 6,
    // The one currency ChangeNOW's catalogue lacks.
    listedBy: ['changelly'],
  },
  {
    ticker: 'doge',
    fullName: 'Dogecoin',
    blockchain: 'doge',
    protocol: 'DOGE',
    precision: 8,
    usd: '0.15',
    networkFee: '2',
    payinConfirmations: 10,
  },
  {
    ticker: 'trx',
    fullName: 'TRON',
    blockchain: 'tron',
    protocol: 'TRX',
    precision: 6,
    usd: '0.12',
    networkFee: '1.1',
    payinConfirmations: 20,
  },
  {
    ticker: 'sol',
    fullName: 'Solana',
    blockchain: 'solana',
    protocol: 'SOL',
    precision: 9,
    usd: '150',
    networkFee: '0.001',
    payinConfirmations: 1,
  },
  {
    ticker: 'ada',
    fullName: 'Cardano',
    blockchain: 'cardano',
    protocol: 'ADA',
    precision: 6,
    usd: '0.45',
    networkFee: '1',
    payinConfirmations: 15,
  },
  {
    ticker: 'usdtrx',
    fullName: 'Tether USD (TRC20)',
    blockchain: 'tron',
    protocol: 'TRC20',
    precision: 6,
    usd: '1',
    networkFee: '1.5',
    payinConfirmations: 20,
    stable: true,
    contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    changenow: { ticker: 'usdt', network: 'trx' },
  },
  {
    ticker: 'usdt20',
    fullName: 'Tether USD (ERC20)',
    blockchain: 'ethereum',
    protocol: 'ERC20',
    precision: 6,
    usd: '1',
    networkFee: '2.5',
    payinConfirmations: 12,
    stable: true,
    contractAddress: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    changenow: { ticker: 'usdt', network: 'eth' },
  },
  {
    ticker: 'usdc',
    fullName: 'USD Coin (ERC20)',
    blockchain: 'ethereum',
    protocol: 'ERC20',
    precision: 6,
    usd: '1',
    networkFee: '2.5',
    payinConfirmations: 12,
    stable: true,
    contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    changenow: { ticker: 'usdc', network: 'eth' },
  },
  {
    ticker: 'bnbbsc',
    fullName: 'BNB (BEP20)',
    blockchain: 'binance_smart_chain',
    protocol: 'BEP20',
    precision: 18,
    usd: '580',
    networkFee: '0.0005',
    payinConfirmations: 15,
    changenow: { ticker: 'bnb', network: 'bsc' },
  },
  {
    ticker: 'pol',
    fullName: 'Polygon',
    blockchain: 'polygon',
    protocol: 'POL',
    precision: 18,
    usd: '0.5',
    networkFee: '0.1',
    payinConfirmations: 128,
    changenow: { ticker: 'pol', network: 'matic' },
  },
  {
    ticker: 'xrp',
    fullName: 'Ripple',
    blockchain: 'ripple',
    protocol: 'XRP',
    precision: 6,
    usd: '0.55',
    networkFee: '0.25',
    payinConfirmations: 1,
    extraIdName: 'Destination tag',
  },
  {
    ticker: 'xlm',
    fullName: 'Stellar',
    blockchain: 'stellar',
    protocol: 'XLM',
    precision: 7,
    usd: '0.11',
    networkFee: '0.01',
    payinConfirmations: 1,
    extraIdName: 'Memo',
  },
  // Accepted as a deposit only: upstream cannot pay it out.
  {
    ticker: 'dash',
    fullName: 'Dash',
    blockchain: 'dash',
    protocol: 'DASH',
    precision: 8,
    usd: '28',
    networkFee: '0.002',
    payinConfirmations: 6,
    enabledTo: false,
    fixRateEnabled: false,
  },
  // Listed but switched off, as upstream does during wallet maintenance.
  {
    ticker: 'etc',
    fullName: 'Ethereum Classic',
    blockchain: 'ethereum_classic',
    protocol: 'ETC',
    precision: 18,
    usd: '22',
    networkFee: '0.01',
    payinConfirmations: 500,
    enabled: false,
    enabledFrom: false,
    enabledTo: false,
  },
  // ChangeNOW's two more: ERC-20 tokens, so their addresses pass the strict check.
  {
    ticker: 'dai',
    fullName: 'Dai (ERC20)',
    blockchain: 'ethereum',
    protocol: 'ERC20',
    precision: 18,
    usd: '1',
    networkFee: '2.5',
    payinConfirmations: 12,
    stable: true,
    contractAddress: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
    listedBy: ['changenow'],
    changenow: { ticker: 'dai', network: 'eth' },
  },
  {
    ticker: 'link',
    fullName: 'Chainlink (ERC20)',
    blockchain: 'ethereum',
    protocol: 'ERC20',
    precision: 18,
    usd: '14',
    networkFee: '0.2',
    payinConfirmations: 12,
    contractAddress: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
    listedBy: ['changenow'],
    changenow: { ticker: 'link', network: 'eth' },
  },
];

/** Every currency the sandbox prices, whichever provider lists it. */
export const CATALOGUE: readonly SandboxCurrency[] = ENTRIES.map((entry) => ({
  enabled: true,
  enabledFrom: entry.enabled ?? true,
  enabledTo: entry.enabled ?? true,
  fixRateEnabled: true,
  extraIdName: null,
  listedBy: ['changelly', 'changenow'],
  // A native coin is its own ticker on its own network.
  changenow: { ticker: entry.ticker, network: entry.ticker },
  ...entry,
}));

/** What `provider` lists, in catalogue order. */
export function listedBy(provider: ProviderName): readonly SandboxCurrency[] {
  return CATALOGUE.filter((c) => c.listedBy.includes(provider));
}
