import { Decimal } from 'decimal.js';
import type { EarningsSummary } from '#app/earnings';
import { usd } from '../data/formats.js';

/** Accrued, payable and paid in USD, and the progress to the payout threshold. */
export function EarningsFigures({ summary }: { summary: EarningsSummary }): JSX.Element {
  const remaining = new Decimal(summary.remainingUsd);
  const payable = new Decimal(summary.payableUsd).gt(0);
  // Once a payout was made due, the progress is towards the next one, not the first.
  const paidOut = payable || new Decimal(summary.paidUsd).gt(0);
  return (
    <>
      <dl class="facts">
        <dt>Accrued</dt>
        <dd safe>{usd(summary.accruedUsd)}</dd>
        <dt>Payable</dt>
        <dd safe>{usd(summary.payableUsd)}</dd>
        <dt>Paid</dt>
        <dd safe>{usd(summary.paidUsd)}</dd>
        {summary.awaitingPrice > 0 ? (
          <>
            <dt>Awaiting a USD price</dt>
            <dd safe>{`${summary.awaitingPrice} finished swaps, booked within minutes`}</dd>
          </>
        ) : (
          ''
        )}
      </dl>
      <div class="progress">
        <label for="payout-progress">Progress to the 100 USD payout threshold</label>
        <progress id="payout-progress" max="100" value={summary.progressPercent} safe>
          {`${summary.progressPercent} %`}
        </progress>
        {payable ? (
          <p safe>
            {`${usd(summary.payableUsd)} is payable: a payout of it is due. What you earn from now on counts towards the next one.`}
          </p>
        ) : (
          ''
        )}
        <p class="muted">
          {remaining.gt(0)
            ? `${paidOut ? 'Towards the next payout: ' : ''}${usd(summary.accruedUsd)} of ${usd(
                summary.thresholdUsd,
              )}, ${usd(remaining.toDecimalPlaces(2, Decimal.ROUND_UP).toFixed())} to go before ${
                paidOut ? 'it' : 'a payout'
              } is due.`
            : 'The threshold is reached: a payout is made due with the next booked fee.'}
        </p>
      </div>
    </>
  );
}
