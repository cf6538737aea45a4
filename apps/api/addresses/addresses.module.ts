import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { ProviderModule } from '#app/provider';
import { PartnerApiModule } from '../auth/partner-api.module.js';
import { AddressesController } from './addresses.controller.js';
import { AddressesService } from './addresses.service.js';

@Module({
  imports: [CatalogueModule, PartnerApiModule, ProviderModule],
  controllers: [AddressesController],
  providers: [AddressesService],
  exports: [AddressesService],
})
export class AddressesModule {}
