import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerAuthGuard } from '../auth/partner-auth.guard.js';
import { AddressesService } from './addresses.service.js';
import { ValidateAddressRequest } from './dto/validate-address.request.js';
import { ValidateAddressResponse } from './dto/validate-address.response.js';

@ApiTags('catalogue')
@ApiBearerAuth()
@UseGuards(PartnerAuthGuard)
@Controller('v1/addresses')
export class AddressesController {
  constructor(private readonly addresses: AddressesService) {}

  @Post('validate')
  @HttpCode(200)
  @ApiOkResponse({ type: ValidateAddressResponse })
  validate(@Body() body: ValidateAddressRequest): Promise<ValidateAddressResponse> {
    return this.addresses.validate(body);
  }
}
