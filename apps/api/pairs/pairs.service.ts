import { Injectable } from '@nestjs/common';
import { CatalogueService } from '#app/catalogue';
import type { PairResponse } from './dto/pair.response.js';

@Injectable()
export class PairsService {
  constructor(private readonly catalogue: CatalogueService) {}

  async get(from: string, to: string): Promise<PairResponse> {
    const { from: source, to: target, params } = await this.catalogue.pair(from, to);
    return {
      pair: {
        from: source.ticker,
        to: target.ticker,
        minAmountFloat: params.minAmountFloat,
        maxAmountFloat: params.maxAmountFloat,
        minAmountFixed: params.minAmountFixed,
        maxAmountFixed: params.maxAmountFixed,
      },
    };
  }
}
