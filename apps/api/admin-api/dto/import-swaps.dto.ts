import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDateString,
  IsString,
  IsUUID,
  Matches,
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
import { EnumField, Field, IsPlainText, StringField } from '#app/input';
import { LEGACY_SWAP_ID } from '#app/swaps';

/** A nullable string of the legacy record, documented as such (its TS type reflects as Object). */
const NULLABLE = { type: String, nullable: true } as const;

/** A field of the legacy record that may be null: the import stores the null. */
const STORED_NULL = { nullable: true } as const;

/** A decimal of the legacy record, or null. */
function StoredDecimal(pattern: RegExp = DECIMAL_STRING): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional(NULLABLE), Field(STORED_NULL, Matches(pattern)));
}

/** A date-time of the legacy record, or null. */
function StoredDate(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional(NULLABLE), Field(STORED_NULL, IsDateString()));
}

export class LegacySwapDto {
  @ApiProperty({ example: 'swp_01HX3' })
  @Field({}, Matches(LEGACY_SWAP_ID, { message: 'id must be a legacy swp_… id.' }))
  id: string;

  @ApiProperty()
  @Field({}, IsUUID('all', { message: 'organizationId must be a UUID.' }))
  organizationId: string;

  @ApiPropertyOptional(NULLABLE)
  @StringField('providerSwapId', { maxLength: 128, ...STORED_NULL })
  providerSwapId?: string | null;

  @ApiProperty({ enum: SWAP_STATUSES })
  @EnumField('status', SWAP_STATUSES)
  status: SwapStatus;

  @ApiPropertyOptional({ enum: SWAP_MODES })
  @EnumField('mode', SWAP_MODES, { required: false })
  mode?: SwapMode;

  @ApiProperty()
  @StringField('from', { maxLength: 32 })
  from: string;

  @ApiProperty()
  @StringField('to', { maxLength: 32 })
  to: string;

  @ApiProperty()
  @Field({}, Matches(DECIMAL_STRING, { message: 'amountFrom must be a decimal string.' }))
  amountFrom: string;

  @StoredDecimal()
  amountExpectedTo?: string | null;

  @StoredDecimal()
  amountActualFrom?: string | null;

  @StoredDecimal()
  amountActualTo?: string | null;

  @StoredDecimal()
  networkFee?: string | null;

  @StoredDecimal()
  actualNetworkFee?: string | null;

  @StoredDecimal()
  rate?: string | null;

  @ApiProperty()
  @StringField('payinAddress', { maxLength: 256 })
  payinAddress: string;

  @ApiProperty()
  @StringField('payoutAddress', { maxLength: 256 })
  payoutAddress: string;

  @ApiPropertyOptional(NULLABLE)
  @StringField('refundAddress', { maxLength: 256, ...STORED_NULL })
  refundAddress?: string | null;

  @ApiPropertyOptional(NULLABLE)
  @StringField('payinHash', { maxLength: 256, ...STORED_NULL })
  payinHash?: string | null;

  @ApiPropertyOptional(NULLABLE)
  @StringField('payoutHash', { maxLength: 256, ...STORED_NULL })
  payoutHash?: string | null;

  @StoredDate()
  moneyReceivedAt?: string | null;

  @StoredDate()
  moneySentAt?: string | null;

  @StoredDecimal(SIGNED_DECIMAL_STRING)
  amountAnomalyPct?: string | null;

  @ApiPropertyOptional(NULLABLE)
  @StringField('partnerReferenceId', { maxLength: 120, ...STORED_NULL })
  partnerReferenceId?: string | null;

  @StoredDate()
  payTill?: string | null;

  @ApiProperty()
  @Field({}, IsDateString({}, { message: 'createdAt must be an ISO 8601 date-time.' }))
  createdAt: string;

  @ApiPropertyOptional()
  @Field({ required: false }, IsString(), IsPlainText())
  amountExpectedFrom?: string;
}

export class ImportSwapsDto {
  @ApiProperty({ type: [LegacySwapDto] })
  @Field(
    {},
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(1000),
    ValidateNested({ each: true }),
    Type(() => LegacySwapDto),
  )
  swaps: LegacySwapDto[];
}

export class ImportSwapsResponse {
  @ApiProperty({ type: 'integer' }) imported: number;
}
