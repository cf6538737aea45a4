import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnerApiModule } from '../auth/partner-api.module.js';
import { PairsController } from './pairs.controller.js';
import { PairsService } from './pairs.service.js';

@Module({
  imports: [CatalogueModule, PartnerApiModule],
  controllers: [PairsController],
  providers: [PairsService],
  exports: [PairsService],
})
export class PairsModule {}
