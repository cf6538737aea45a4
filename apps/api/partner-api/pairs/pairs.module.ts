import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { PairsController } from './pairs.controller.js';

@Module({
  imports: [CatalogueModule, PartnerApiModule],
  controllers: [PairsController],
})
export class PairsModule {}
