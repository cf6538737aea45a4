import { Module } from '@nestjs/common';
import { SwapsController } from './swaps.controller.js';

/** Needs the global SwapsModule of `#app/swaps` (imported once by the api root). */
@Module({ controllers: [SwapsController] })
export class SwapsModule {}
