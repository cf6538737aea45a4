import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDateString,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  SWAP_STATUSES,
  type SwapStatus,
  SWAP_MODES,
  type SwapMode,
  DECIMAL_STRING,
  SIGNED_DECIMAL_STRING,
} from '#app/domain';
import { IsPlainText } from '#app/input';
import { LEGACY_SWAP_ID } from '#app/swaps';

/** A nullable string of the legacy record, documented as such (its TS type reflects as Object). */
const NULLABLE = { type: String, nullable: true } as const;

export class LegacySwapDto {
  @ApiProperty({ example: 'swp_01HX3' })
  @Matches(LEGACY_SWAP_ID, { message: 'id must be a legacy swp_… id.' })
  id: string;

  @ApiProperty()
  @IsUUID('all', { message: 'organizationId must be a UUID.' })
  organizationId: string;
  @ApiPropertyOptional(NULLABLE)
  @IsOptional()
  @IsString()
  @IsPlainText()
  @MaxLength(128)
  providerSwapId?: string | null;
  @ApiProperty({ enum: SWAP_STATUSES }) @IsIn(SWAP_STATUSES) status: SwapStatus;
  @ApiPropertyOptional({ enum: SWAP_MODES }) @IsOptional() @IsIn(SWAP_MODES) mode?: SwapMode;
  @ApiProperty() @IsString() @IsPlainText() @MaxLength(32) from: string;
  @ApiProperty() @IsString() @IsPlainText() @MaxLength(32) to: string;
  @ApiProperty()
  @Matches(DECIMAL_STRING, { message: 'amountFrom must be a decimal string.' })
  amountFrom: string;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(DECIMAL_STRING) amountExpectedTo?:
    string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(DECIMAL_STRING) amountActualFrom?:
    string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(DECIMAL_STRING) amountActualTo?:
    string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(DECIMAL_STRING) networkFee?: string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(DECIMAL_STRING) actualNetworkFee?:
    string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(DECIMAL_STRING) rate?: string | null;
  @ApiProperty() @IsString() @IsPlainText() @MaxLength(256) payinAddress: string;
  @ApiProperty() @IsString() @IsPlainText() @MaxLength(256) payoutAddress: string;
  @ApiPropertyOptional(NULLABLE)
  @IsOptional()
  @IsString()
  @IsPlainText()
  @MaxLength(256)
  refundAddress?: string | null;
  @ApiPropertyOptional(NULLABLE)
  @IsOptional()
  @IsString()
  @IsPlainText()
  @MaxLength(256)
  payinHash?: string | null;
  @ApiPropertyOptional(NULLABLE)
  @IsOptional()
  @IsString()
  @IsPlainText()
  @MaxLength(256)
  payoutHash?: string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @IsDateString() moneyReceivedAt?: string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @IsDateString() moneySentAt?: string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @Matches(SIGNED_DECIMAL_STRING) amountAnomalyPct?:
    string | null;
  @ApiPropertyOptional(NULLABLE)
  @IsOptional()
  @IsString()
  @IsPlainText()
  @MaxLength(120)
  partnerReferenceId?: string | null;
  @ApiPropertyOptional(NULLABLE) @IsOptional() @IsDateString() payTill?: string | null;
  @ApiProperty()
  @IsDateString({}, { message: 'createdAt must be an ISO 8601 date-time.' })
  createdAt: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @IsPlainText() amountExpectedFrom?: string;
}

export class ImportSwapsDto {
  @ApiProperty({ type: [LegacySwapDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => LegacySwapDto)
  swaps: LegacySwapDto[];
}

export class ImportSwapsResponse {
  @ApiProperty({ type: 'integer' }) imported: number;
}
