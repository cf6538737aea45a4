import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { IsPlainText } from '#app/input';
import { FAULT_MODES, type FaultMode } from '../fault.book.js';

export class FaultDto {
  /** A JSON-RPC method name or `*`. */
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
  @IsInt()
  code?: number;

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
