import { Module } from '@nestjs/common';
import { ProviderModule } from '#app/provider';
import { CatalogueService } from './catalogue.service.js';

@Module({
  imports: [ProviderModule],
  providers: [CatalogueService],
  exports: [CatalogueService],
})
export class CatalogueModule {}
