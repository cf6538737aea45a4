import { Module } from '@nestjs/common';
import { PartnersModule } from '#app/partners';
import { ActivityRepository } from './activity.repository.js';
import { ActivityService } from './activity.service.js';
import { PayoutAddressService } from './payout-address.service.js';
import { EarningsModule } from './earnings.module.js';

/**
 * What the partner dashboard shows of earnings and activity, and the payout address change.
 */
@Module({
  imports: [EarningsModule, PartnersModule],
  providers: [ActivityRepository, ActivityService, PayoutAddressService],
  exports: [EarningsModule, ActivityService, PayoutAddressService],
})
export class PartnerEarningsModule {}
