import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { validateAddress } from '#app/chains';
import { PAYOUT_CHAINS, PAYOUT_NETWORKS, type PayoutNetwork } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { isPlainText } from '#app/input';
import { AuditLogRepository, OrganizationsRepository, type PayoutDestination } from '#app/partners';
import { EarningsRepository } from './earnings.repository.js';

/** The payout address form as sent: nothing in it is trusted. */
export interface PayoutAddressInput {
  payoutAddress: unknown;
  /** Absent or empty: `trc20`, the default network. */
  payoutNetwork: unknown;
}

export interface PayoutAddressChange {
  previous: PayoutDestination;
  current: { address: string; network: PayoutNetwork };
  /** False when the organization already had exactly this destination: no audit entry, no notice. */
  changed: boolean;
  /** Due payouts that now go to the new address. */
  duePayoutsRedirected: number;
}

/** The column's width; no address of either network comes near it. */
const MAX_ADDRESS_LENGTH = 128;

const NETWORK_NAMES: Record<PayoutNetwork, string> = {
  trc20: 'USDT TRC-20 (TRON)',
  erc20: 'USDT ERC-20 (Ethereum)',
};

function invalid(param: string, message: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message, { param });
}

/**
 * The destination the form asks for, after the strict check of its network's chain (the one
 * `POST /v1/swaps` applies to payout addresses). Leading and trailing spaces of a pasted address
 * are dropped; anything else that is not an address of that chain is refused.
 */
export function parsePayoutDestination(input: PayoutAddressInput): {
  address: string;
  network: PayoutNetwork;
} {
  const rawNetwork = input.payoutNetwork ?? '';
  if (typeof rawNetwork !== 'string') {
    throw invalid('payoutNetwork', 'payoutNetwork must be trc20 or erc20.');
  }
  const network = rawNetwork.trim() === '' ? 'trc20' : rawNetwork.trim();
  if (!(PAYOUT_NETWORKS as readonly string[]).includes(network)) {
    throw invalid('payoutNetwork', 'payoutNetwork must be trc20 or erc20.');
  }
  const payoutNetwork = network as PayoutNetwork;
  if (typeof input.payoutAddress !== 'string' || input.payoutAddress.trim() === '') {
    throw invalid('payoutAddress', 'payoutAddress is required.');
  }
  const address = input.payoutAddress.trim();
  if (address.length > MAX_ADDRESS_LENGTH || !isPlainText(address)) {
    throw new AppError(
      ErrorCode.InvalidAddress,
      `payoutAddress is not a valid ${NETWORK_NAMES[payoutNetwork]} address.`,
      { param: 'payoutAddress' },
    );
  }
  if (!validateAddress(PAYOUT_CHAINS[payoutNetwork], address).valid) {
    throw new AppError(
      ErrorCode.InvalidAddress,
      `payoutAddress is not a valid ${NETWORK_NAMES[payoutNetwork]} address.`,
      { param: 'payoutAddress' },
    );
  }
  return { address, network: payoutNetwork };
}

/**
 * An owner's change of the organization's USDT payout destination. The caller has checked the
 * role and the recent re-authentication; this checks the address, writes the organization and
 * its due payouts in one transaction, and the audit entry after it.
 */
@Injectable()
export class PayoutAddressService {
  private readonly logger = new Logger(PayoutAddressService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly earnings: EarningsRepository,
    private readonly audit: AuditLogRepository,
  ) {}

  async change(
    organizationId: string,
    input: PayoutAddressInput,
    actor: string,
  ): Promise<PayoutAddressChange> {
    const current = parsePayoutDestination(input);
    const result = await this.dataSource.transaction(async (manager) => {
      const previous = await this.organizations.setPayoutDestinationWithin(
        manager,
        organizationId,
        current,
      );
      if (!previous) {
        throw new AppError(ErrorCode.NotFound, 'Organization not found.');
      }
      const redirected = await this.earnings.redirectDuePayoutsWithin(
        manager,
        organizationId,
        current.address,
        current.network,
      );
      return { previous, redirected };
    });
    const changed =
      result.previous.address !== current.address || result.previous.network !== current.network;
    if (changed) {
      await this.audit.record({
        actor,
        action: 'payout_address.changed',
        targetType: 'organization',
        targetId: organizationId,
        details: {
          organizationId,
          address: current.address,
          network: current.network,
          previousAddress: result.previous.address,
          previousNetwork: result.previous.network,
          duePayoutsRedirected: result.redirected,
        },
      });
      this.logger.log(
        { orgId: organizationId, actor, network: current.network },
        'payout address changed',
      );
    }
    return {
      previous: result.previous,
      current,
      changed,
      duePayoutsRedirected: result.redirected,
    };
  }
}
