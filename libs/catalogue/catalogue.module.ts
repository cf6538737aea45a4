import { Module } from '@nestjs/common';
import { ProviderModule } from '#app/provider';
import { AddressCheckService } from './address-check.service.js';
import { CatalogueService } from './catalogue.service.js';

@Module({
  imports: [ProviderModule],
  providers: [CatalogueService, AddressCheckService],
  exports: [CatalogueService, AddressCheckService],
})
export class CatalogueModule {}
