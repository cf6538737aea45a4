import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { AddressesController } from './addresses.controller.js';

@Module({
  imports: [CatalogueModule, PartnerApiModule],
  controllers: [AddressesController],
})
export class AddressesModule {}
