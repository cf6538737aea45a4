import { Module } from '@nestjs/common';
import { SwapsModule as SwapsDomainModule } from '#app/swaps';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { SwapsController } from './swaps.controller.js';

@Module({ imports: [SwapsDomainModule, PartnerApiModule], controllers: [SwapsController] })
export class SwapsModule {}
