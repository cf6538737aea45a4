import { IntegerField } from '#app/input';

export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 200;

/**
 * Same bounds as every list in the service (docs/decisions.md, "Pagination"), for the admin API and
 * the CLI.
 */
export class AuditQueryInput {
  @IntegerField('limit', { min: 1, max: MAX_AUDIT_LIMIT }, { required: false })
  limit: number = DEFAULT_AUDIT_LIMIT;
}
