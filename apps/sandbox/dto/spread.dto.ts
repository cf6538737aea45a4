import { IsIn, IsInt, IsString, Max, Min, MinLength } from 'class-validator';
import { PROVIDER_NAMES, type ProviderName } from '#app/domain';
import { IsPlainText } from '#app/input';

export class SpreadDto {
  @IsIn(PROVIDER_NAMES)
  provider: ProviderName;

  /** The sandbox's ticker (Changelly's spelling) of the currency sent. */
  @IsString()
  @IsPlainText()
  @MinLength(1)
  from: string;

  @IsString()
  @IsPlainText()
  @MinLength(1)
  to: string;

  /** Basis points taken off the reference rate; more is worse for the user. */
  @IsInt()
  @Min(0)
  @Max(5000)
  bps: number;
}
