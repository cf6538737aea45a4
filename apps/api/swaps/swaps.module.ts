import { Module } from '@nestjs/common';
import { SwapsModule as SwapsDomainModule } from '#app/swaps';
import { SwapsController } from './swaps.controller.js';

@Module({ imports: [SwapsDomainModule], controllers: [SwapsController] })
export class SwapsModule {}
