import { AuditQueryInput, DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from '#app/partners';
import { ApiProperties } from '../../platform/contract/api-properties.decorator.js';

@ApiProperties<AuditQueryInput>({
  limit: {
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_AUDIT_LIMIT,
    default: DEFAULT_AUDIT_LIMIT,
  },
})
export class AuditQueryDto extends AuditQueryInput {}
