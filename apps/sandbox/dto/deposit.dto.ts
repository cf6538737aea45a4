import { IsBoolean, IsOptional, Matches } from 'class-validator';

export class DepositDto {
  /** Defaults to the expected amount. */
  @IsOptional()
  @Matches(/^\d+(\.\d+)?$/, { message: 'amount must be a decimal string' })
  amount?: string;

  /** Arrives after the deadline. */
  @IsOptional()
  @IsBoolean()
  late?: boolean;
}
