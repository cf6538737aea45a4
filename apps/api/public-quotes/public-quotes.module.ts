import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PublicQuotesController } from './public-quotes.controller.js';
import { PublicQuotesService } from './public-quotes.service.js';

@Module({
  imports: [CatalogueModule],
  controllers: [PublicQuotesController],
  providers: [PublicQuotesService],
})
export class PublicQuotesModule {}
