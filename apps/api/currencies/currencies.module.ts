import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnerApiModule } from '../auth/partner-api.module.js';
import { CurrenciesController } from './currencies.controller.js';
import { CurrenciesService } from './currencies.service.js';

@Module({
  imports: [CatalogueModule, PartnerApiModule],
  controllers: [CurrenciesController],
  providers: [CurrenciesService],
  exports: [CurrenciesService],
})
export class CurrenciesModule {}
