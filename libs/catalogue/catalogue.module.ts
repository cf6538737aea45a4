import { Module } from '@nestjs/common';
import { CatalogueService } from './catalogue.service.js';

/** Requires a module that provides LIQUIDITY_PROVIDER globally (ProviderModule). */
@Module({ providers: [CatalogueService], exports: [CatalogueService] })
export class CatalogueModule {}
