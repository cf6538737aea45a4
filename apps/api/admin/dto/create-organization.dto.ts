import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ORGANIZATION_STATUSES, type OrganizationStatus, ORGANIZATION_DEFAULTS } from '#app/domain';
import type { NewOrganization } from '#app/partners';
import { IsFeePercent, toFeePercent } from './fee-percent.js';

function trim({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

export class CreateOrganizationDto {
  @ApiProperty({ maxLength: 200, example: 'Acme Wallet' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({
    type: String,
    example: '1.5',
    description:
      'Partner fee in percent, a decimal string from "0" to "4" (a JSON number is also accepted).',
  })
  @Transform(toFeePercent)
  @IsFeePercent()
  feePercent: string;

  @ApiPropertyOptional({ enum: ORGANIZATION_STATUSES, default: ORGANIZATION_DEFAULTS.status })
  @IsOptional()
  @IsIn(ORGANIZATION_STATUSES)
  status?: OrganizationStatus;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  providerActivated?: boolean;
}

/** The domain's organization defaults, with what the operator chose. */
export function toNewOrganization(dto: CreateOrganizationDto): NewOrganization {
  return {
    ...ORGANIZATION_DEFAULTS,
    name: dto.name,
    feePercent: dto.feePercent,
    status: dto.status ?? ORGANIZATION_DEFAULTS.status,
    providerActivated: dto.providerActivated ?? ORGANIZATION_DEFAULTS.providerActivated,
  };
}
