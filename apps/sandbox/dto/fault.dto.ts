import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { PROVIDER_NAMES, type ProviderName } from '#app/domain';
import { IsPlainText } from '#app/input';
import { FAULT_MODES, type FaultMode } from '../fault.book.js';

/** Changelly's `rpc_error` takes a JSON-RPC code, ChangeNOW's an error word. */
function IsFaultCode(): PropertyDecorator {
  return ValidateBy({
    name: 'isFaultCode',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        (args?.object as FaultDto | undefined)?.provider === 'changenow'
          ? typeof value === 'string' && /^[a-z_]{1,64}$/.test(value)
          : Number.isInteger(value),
      defaultMessage: () =>
        'code must be an integer (changelly) or an error word of a-z and _ (changenow)',
    },
  });
}

export class FaultDto {
  /** Whose API it spoils [changelly]. */
  @IsOptional()
  @IsIn(PROVIDER_NAMES)
  provider?: ProviderName;

  /** A JSON-RPC method, a ChangeNOW operation, or `*`. */
  @IsString()
  @IsPlainText()
  @MinLength(1)
  method: string;

  @IsIn(FAULT_MODES)
  mode: FaultMode;

  /** How many calls it spoils [1]. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  count?: number;

  /** For `rpc_error`. */
  @IsOptional()
  @IsFaultCode()
  code?: number | string;

  @IsOptional()
  @IsString()
  @IsPlainText()
  message?: string;

  /** For `timeout`: how long the answer is held back. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  delayMs?: number;
}
