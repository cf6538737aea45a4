import { Module } from '@nestjs/common';
import { ActivityRepository } from './activity.repository.js';
import { ActivityService } from './activity.service.js';
import { PayoutAddressService } from './payout-address.service.js';
import { EarningsModule } from './settlement.module.js';

/**
 * What the partner dashboard shows of earnings and activity, and the payout address change.
 * Needs the global PartnersModule (organizations, audit log).
 */
@Module({
  imports: [EarningsModule],
  providers: [ActivityRepository, ActivityService, PayoutAddressService],
  exports: [EarningsModule, ActivityService, PayoutAddressService],
})
export class PartnerEarningsModule {}
