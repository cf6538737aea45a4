import { Injectable } from '@nestjs/common';
import { LiquidityRouter } from '#app/routing';
import { CatalogueService } from './catalogue.service.js';

/** The verdict on an address: `message` says why it is not one. */
export interface AddressVerdict {
  valid: boolean;
  message?: string;
}

/** Characters some supported chain uses in an address; anything else cannot be an address. */
const PLAUSIBLE_ADDRESS = /^[A-Za-z0-9:._-]{8,256}$/;

/**
 * The permissive check of `POST /v1/addresses/validate` (and the widget's): a syntactic pre-check,
 * then `validateAddress` of the first provider in routing that lists the currency. Swap creation
 * runs the strict chain-specific check.
 */
@Injectable()
export class AddressCheckService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly router: LiquidityRouter,
  ) {}

  async validate(
    livemode: boolean,
    request: { currency: string; address: string },
  ): Promise<AddressVerdict> {
    const currency = await this.catalogue.currency(livemode, request.currency);
    if (!PLAUSIBLE_ADDRESS.test(request.address)) {
      return { valid: false, message: `This is not a ${currency.fullName} address.` };
    }
    const provider = await this.router.listing(livemode, currency.ticker);
    const verdict = await provider.validateAddress(currency.ticker, request.address);
    return verdict.result
      ? { valid: true }
      : {
          valid: false,
          message: verdict.message ?? `This is not a valid ${currency.fullName} address.`,
        };
  }
}
