import { Module } from '@nestjs/common';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { GetStartedController } from './get-started.controller.js';

/** "Get started". The keys and the checklist come from the api's `PartnersModule`. */
@Module({
  imports: [DashboardCoreModule],
  controllers: [GetStartedController],
})
export class GetStartedPagesModule {}
