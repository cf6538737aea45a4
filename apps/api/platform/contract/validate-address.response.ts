import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ValidateAddressResponse {
  @ApiProperty() valid: boolean;
  @ApiPropertyOptional({ description: 'Present only when valid is false' }) message?: string;
}
