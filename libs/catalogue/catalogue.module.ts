import { Module } from '@nestjs/common';
import { RoutingModule } from '#app/routing';
import { AddressCheckService } from './address-check.service.js';
import { CatalogueService } from './catalogue.service.js';

@Module({
  imports: [RoutingModule],
  providers: [CatalogueService, AddressCheckService],
  exports: [CatalogueService, AddressCheckService],
})
export class CatalogueModule {}
