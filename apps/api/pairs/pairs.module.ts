import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PairsController } from './pairs.controller.js';
import { PairsService } from './pairs.service.js';

@Module({
  imports: [CatalogueModule],
  controllers: [PairsController],
  providers: [PairsService],
  exports: [PairsService],
})
export class PairsModule {}
