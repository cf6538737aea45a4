import type { ResolvedPair } from '#app/catalogue';
import type { SwapStatus } from '#app/domain';
import type {
  LiquidityProvider,
  ProviderCurrency,
  ProviderPairParams,
  ProviderTransaction,
} from '#app/provider';

/** Valid addresses of each chain the unit specs swap between. */
export const ADDRESSES = {
  btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

/** A provider transaction of 0.1 BTC to ETH, waiting for its deposit, unless `fields` say else. */
export function providerTransaction(
  fields: Partial<ProviderTransaction> = {},
): ProviderTransaction {
  return {
    id: 'tx',
    status: 'waiting',
    from: 'btc',
    to: 'eth',
    payinAddress: ADDRESSES.btc,
    payoutAddress: ADDRESSES.eth,
    refundAddress: null,
    userMetadata: null,
    amountExpectedFrom: '0.1',
    amountExpectedTo: '1.5',
    networkFee: '0.002',
    rate: '15.2',
    payTill: null,
    createdAt: new Date().toISOString(),
    payinHash: null,
    payoutHash: null,
    refundHash: null,
    amountActualFrom: null,
    amountActualTo: null,
    actualNetworkFee: null,
    moneyReceivedAt: null,
    moneySentAt: null,
    ...fields,
  };
}

/** Transaction `id` as the provider reports it in `status`: settled (hashes, amounts) once finished. */
export function providerReport(id: string, status: SwapStatus): ProviderTransaction {
  const finished = status === 'finished';
  return providerTransaction({
    id,
    status,
    payinHash: finished ? 'in' : null,
    payoutHash: finished ? 'out' : null,
    amountActualFrom: finished ? '0.1' : null,
    amountActualTo: finished ? '1.5' : null,
  });
}

/** An enabled currency, fixed rates included, without a memo. */
export function providerCurrency(
  ticker: string,
  blockchain: string,
  precision: number,
  fields: Partial<ProviderCurrency> = {},
): ProviderCurrency {
  return {
    ticker,
    fullName: ticker,
    enabled: true,
    enabledFrom: true,
    enabledTo: true,
    fixRateEnabled: true,
    payinConfirmations: 1,
    extraIdName: null,
    image: null,
    blockchain,
    blockchainPrecision: precision,
    ...fields,
  };
}

/** BTC to ETH bounds: float 0.001–20 BTC, fixed 0.002–10 BTC. */
export function btcEthParams(fields: Partial<ProviderPairParams> = {}): ProviderPairParams {
  return {
    from: 'btc',
    to: 'eth',
    minAmountFloat: '0.001',
    maxAmountFloat: '20',
    minAmountFixed: '0.002',
    maxAmountFixed: '10',
    ...fields,
  };
}

/**
 * BTC to ETH in live mode as the catalogue resolves it, offered by `providers` (each with the
 * same bounds, fixed rates included).
 */
export function btcEthPair(providers: readonly LiquidityProvider[] = []): ResolvedPair {
  const params = btcEthParams();
  return {
    livemode: true,
    from: providerCurrency('btc', 'bitcoin', 8),
    to: providerCurrency('eth', 'ethereum', 18),
    params,
    offers: providers.map((provider) => ({ provider, params, fixed: true })),
  };
}
