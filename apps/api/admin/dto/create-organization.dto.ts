import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { NewOrganization } from '#app/partners';
import { ORGANIZATION_STATUSES, type OrganizationStatus } from '#app/persistence';
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

  @ApiPropertyOptional({ enum: ORGANIZATION_STATUSES, default: 'pending_review' })
  @IsOptional()
  @IsIn(ORGANIZATION_STATUSES)
  status?: OrganizationStatus;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  providerActivated?: boolean;
}

/** Organizations start under review with the default payout network unless told otherwise. */
export function toNewOrganization(dto: CreateOrganizationDto): NewOrganization {
  return {
    name: dto.name,
    feePercent: dto.feePercent,
    status: dto.status ?? 'pending_review',
    providerActivated: dto.providerActivated ?? false,
    payoutAddress: null,
    payoutNetwork: 'trc20',
  };
}
