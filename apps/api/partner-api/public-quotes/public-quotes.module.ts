import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { RoutingModule } from '#app/routing';
import { RedisModule } from '#app/redis';
import { RateLimitingModule } from '../../platform/rate-limiting/rate-limiting.module.js';
import { PublicQuotesController } from './public-quotes.controller.js';
import { PublicQuotesService } from './public-quotes.service.js';

@Module({
  imports: [CatalogueModule, RoutingModule, RedisModule, RateLimitingModule],
  controllers: [PublicQuotesController],
  providers: [PublicQuotesService],
})
export class PublicQuotesModule {}
