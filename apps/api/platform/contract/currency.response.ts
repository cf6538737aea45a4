import { ApiProperty } from '@nestjs/swagger';
import type { ProviderCurrency } from '#app/provider';

export class CurrencyView {
  @ApiProperty({ example: 'btc' }) ticker: string;
  @ApiProperty({ example: 'Bitcoin' }) fullName: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ description: 'Usable as source' }) enabledFrom: boolean;
  @ApiProperty({ description: 'Usable as destination' }) enabledTo: boolean;
  @ApiProperty({ type: 'integer' }) payinConfirmations: number;
  @ApiProperty({ example: 'bitcoin' }) blockchain: string;
  @ApiProperty({ type: 'integer' }) blockchainPrecision: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Icon URL' }) image: string | null;

  static from(c: ProviderCurrency): CurrencyView {
    return {
      ticker: c.ticker,
      fullName: c.fullName,
      enabled: c.enabled,
      enabledFrom: c.enabledFrom,
      enabledTo: c.enabledTo,
      payinConfirmations: c.payinConfirmations,
      blockchain: c.blockchain,
      blockchainPrecision: c.blockchainPrecision,
      image: c.image,
    };
  }
}

export class CurrenciesResponse {
  @ApiProperty({
    description: 'Currency objects, or only tickers with `lite=true`',
    oneOf: [
      { type: 'array', items: { $ref: '#/components/schemas/CurrencyView' } },
      { type: 'array', items: { type: 'string' } },
    ],
  })
  currencies: CurrencyView[] | string[];

  /** Every currency, or with `lite` only their tickers. */
  static of(currencies: ProviderCurrency[], lite: boolean): CurrenciesResponse {
    return {
      currencies: lite
        ? currencies.map((c) => c.ticker)
        : currencies.map((c) => CurrencyView.from(c)),
    };
  }
}
