import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SwapMode, SwapStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { EventRecorder } from '#app/events';
import { AuditLogRepository, OrganizationsRepository } from '#app/partners';
import { buildSwap } from './swap.factory.js';
import { toSwapView } from './swap.view.js';
import { SwapsRepository } from './swaps.repository.js';

/** One swap of the previous system, in the spec's Swap shape plus its organization. */
export interface LegacySwap {
  id: string;
  organizationId: string;
  providerSwapId?: string | null;
  status: SwapStatus;
  mode?: SwapMode;
  from: string;
  to: string;
  amountFrom: string;
  amountExpectedTo?: string | null;
  amountActualFrom?: string | null;
  amountActualTo?: string | null;
  networkFee?: string | null;
  actualNetworkFee?: string | null;
  rate?: string | null;
  payinAddress: string;
  payoutAddress: string;
  refundAddress?: string | null;
  payinHash?: string | null;
  payoutHash?: string | null;
  moneyReceivedAt?: string | null;
  moneySentAt?: string | null;
  amountAnomalyPct?: string | null;
  partnerReferenceId?: string | null;
  payTill?: string | null;
  createdAt: string;
}

function date(value: string | null | undefined): Date | null {
  return value ? new Date(value) : null;
}

/**
 * `POST /admin/swaps/import` (docs/decisions.md, "Legacy imports"): existing ids are skipped, never
 * overwritten; each swap imported gets its `swap.created` event in the same transaction.
 */
@Injectable()
export class LegacyImportService {
  private readonly logger = new Logger(LegacyImportService.name);

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly audit: AuditLogRepository,
    private readonly events: EventRecorder,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async import(legacy: LegacySwap[], actor: string): Promise<number> {
    await this.assertOrganizationsExist(legacy);
    const rows = legacy.map((s) =>
      buildSwap({
        id: s.id,
        organizationId: s.organizationId,
        // The previous system had one provider, Changelly (docs/decisions.md, "Legacy imports").
        provider: 'changelly',
        // A provider id that differs from ours is what the poller needs to keep refreshing it.
        providerTransactionId:
          s.providerSwapId && s.providerSwapId !== s.id ? s.providerSwapId : null,
        status: s.status,
        mode: s.mode ?? (s.payTill ? 'fixed' : 'float'),
        from: s.from,
        to: s.to,
        amountFrom: s.amountFrom,
        amountExpectedTo: s.amountExpectedTo ?? null,
        amountActualFrom: s.amountActualFrom ?? null,
        amountActualTo: s.amountActualTo ?? null,
        networkFee: s.networkFee ?? null,
        actualNetworkFee: s.actualNetworkFee ?? null,
        rate: s.rate ?? null,
        amountAnomalyPct: s.amountAnomalyPct ?? null,
        payinAddress: s.payinAddress,
        payoutAddress: s.payoutAddress,
        refundAddress: s.refundAddress ?? null,
        payinHash: s.payinHash ?? null,
        payoutHash: s.payoutHash ?? null,
        moneyReceivedAt: date(s.moneyReceivedAt),
        moneySentAt: date(s.moneySentAt),
        partnerReferenceId: s.partnerReferenceId ?? null,
        payTill: date(s.payTill),
        createdAt: new Date(s.createdAt),
        updatedAt: new Date(),
      }),
    );
    // Each imported swap starts its history with `swap.created`, as a swap created here does.
    const imported = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.swaps.importMissing(manager, rows);
      for (const swap of rows.filter((row) => inserted.has(row.id))) {
        await this.events.swapCreated(manager, swap.organizationId, toSwapView(swap));
      }
      return inserted.size;
    });
    await this.audit.record({
      actor,
      action: 'swaps.import',
      targetType: 'swap',
      targetId: `${legacy.length} legacy swaps`,
      details: { received: legacy.length, imported },
    });
    this.logger.log({ received: legacy.length, imported, actor }, 'legacy swaps imported');
    return imported;
  }

  private async assertOrganizationsExist(legacy: LegacySwap[]): Promise<void> {
    const ids = [...new Set(legacy.map((s) => s.organizationId))];
    const found = new Set(await this.organizations.existingIds(ids));
    const missing = ids.find((id) => !found.has(id));
    if (missing) {
      throw new AppError(ErrorCode.InvalidRequest, `Unknown organization ${missing}.`, {
        param: 'organizationId',
      });
    }
  }
}
