import { Injectable } from '@nestjs/common';
import { CatalogueService } from '#app/catalogue';
import { CurrenciesResponse, CurrencyView } from './dto/currency.response.js';

@Injectable()
export class CurrenciesService {
  constructor(private readonly catalogue: CatalogueService) {}

  async list(lite: boolean): Promise<CurrenciesResponse> {
    const currencies = await this.catalogue.currencies();
    return {
      currencies: lite
        ? currencies.map((c) => c.ticker)
        : currencies.map((c) => CurrencyView.from(c)),
    };
  }
}
