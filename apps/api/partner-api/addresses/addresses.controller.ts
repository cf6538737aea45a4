import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AddressCheckService } from '#app/catalogue';
import { ErrorCode } from '#app/errors';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { ValidateAddressDto } from '../../platform/contract/validate-address.dto.js';
import { ValidateAddressResponse } from '../../platform/contract/validate-address.response.js';
import type { AuthenticatedPartner } from '#app/partners';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';
import {
  ApiErrors,
  JSON_BODY_ERRORS,
  UPSTREAM_ERRORS,
} from '../../platform/contract/api-errors.decorator.js';

@ApiTags('catalogue')
@PartnerApi()
@Controller('v1/addresses')
export class AddressesController {
  constructor(private readonly addresses: AddressCheckService) {}

  @Post('validate')
  @ApiOperation({
    summary: 'Validate an address',
    description:
      'Whether an address (and extra id) is valid for a currency, with the same strict check ' +
      '`POST /v1/swaps` applies. An invalid address answers 200 with `result: false`.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ...UPSTREAM_ERRORS, ErrorCode.PairUnsupported)
  @HttpCode(200)
  @ApiOkResponse({
    type: ValidateAddressResponse,
    description: 'Whether the address is valid, and why not.',
  })
  validate(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Body() body: ValidateAddressDto,
  ): Promise<ValidateAddressResponse> {
    return this.addresses.validate(partner.livemode, body);
  }
}
