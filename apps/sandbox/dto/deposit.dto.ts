import { IsBoolean, IsOptional, Matches } from 'class-validator';
import { DECIMAL_STRING } from '#app/domain';

export class DepositDto {
  /** Defaults to the expected amount. */
  @IsOptional()
  @Matches(DECIMAL_STRING, { message: 'amount must be a decimal string' })
  amount?: string;

  /** Arrives after the deadline. */
  @IsOptional()
  @IsBoolean()
  late?: boolean;
}
