import { Module } from '@nestjs/common';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { ApiKeysController } from './api-keys.controller.js';

/** The API keys page. The keys service comes from the api's `PartnersModule`. */
@Module({
  imports: [DashboardCoreModule],
  controllers: [ApiKeysController],
})
export class ApiKeysPagesModule {}
