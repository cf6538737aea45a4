import { Module } from '@nestjs/common';
import { PartnerEarningsModule } from '#app/earnings';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { DashboardEarningsController } from './earnings.controller.js';

/** The Earnings page, its export and the payout address change. */
@Module({
  imports: [DashboardCoreModule, PartnerEarningsModule],
  controllers: [DashboardEarningsController],
})
export class DashboardEarningsModule {}
