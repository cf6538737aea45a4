import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { AddressesService } from './addresses.service.js';
import { ValidateAddressDto } from './dto/validate-address.dto.js';
import { ValidateAddressResponse } from './dto/validate-address.response.js';

@ApiTags('catalogue')
@PartnerApi()
@Controller('v1/addresses')
export class AddressesController {
  constructor(private readonly addresses: AddressesService) {}

  @Post('validate')
  @HttpCode(200)
  @ApiOkResponse({ type: ValidateAddressResponse })
  validate(@Body() body: ValidateAddressDto): Promise<ValidateAddressResponse> {
    return this.addresses.validate(body);
  }
}
