import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { CurrenciesController } from './currencies.controller.js';
import { CurrenciesService } from './currencies.service.js';

@Module({
  imports: [CatalogueModule],
  controllers: [CurrenciesController],
  providers: [CurrenciesService],
  exports: [CurrenciesService],
})
export class CurrenciesModule {}
