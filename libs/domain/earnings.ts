import { Decimal } from 'decimal.js';

/** A payout is due once the unpaid balance reaches this many USD (spec, Limits). */
export const PAYOUT_THRESHOLD_USD = '100';

/** USDT amounts carry 6 decimals on both TRC-20 and ERC-20. */
const USD_DECIMALS = 6;

/**
 * The partner's fee on one finished swap in USD: fee % of the received amount at the USD price
 * of that moment. Rounded down so rounding never pays out more than was earned.
 */
export function feeInUsd(amountActualFrom: string, usdPrice: string, feePercent: string): string {
  return new Decimal(amountActualFrom)
    .mul(usdPrice)
    .mul(feePercent)
    .div(100)
    .toDecimalPlaces(USD_DECIMALS, Decimal.ROUND_DOWN)
    .toFixed();
}

export function reachesPayoutThreshold(balanceUsd: string): boolean {
  return new Decimal(balanceUsd).gte(PAYOUT_THRESHOLD_USD);
}
