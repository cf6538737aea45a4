import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 200;

/**
 * Same bounds as every list in the service (docs/decisions.md, "Pagination"), for the admin API and
 * the CLI.
 */
export class AuditQueryInput {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_AUDIT_LIMIT)
  limit: number = DEFAULT_AUDIT_LIMIT;
}
