import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { CurrenciesController } from './currencies.controller.js';

@Module({
  imports: [CatalogueModule, PartnerApiModule],
  controllers: [CurrenciesController],
})
export class CurrenciesModule {}
