import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { PartnerAccessGuard } from '../../platform/auth/partner-access.guard.js';
import { ApiErrors, DEPENDENCY_ERRORS } from '../../platform/contract/api-errors.decorator.js';
import { RateLimitGuard } from '../../platform/rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../../platform/rate-limiting/rate-limits.decorator.js';
import { WidgetKeyGuard } from './widget-key.guard.js';
import { WIDGET_SECURITY } from '../../platform/openapi/security-schemes.js';

/**
 * A widget API endpoint: the widget key and its origins (401, 403), then counted per IP on
 * `/widget-api` and per key in one round trip (429), then the organization's state (403, 503),
 * exactly as the partner API authorizes a credential.
 */
export const WidgetApi = (): ClassDecorator =>
  applyDecorators(
    ApiSecurity(WIDGET_SECURITY),
    ApiErrors(
      ErrorCode.Unauthenticated,
      ErrorCode.OriginNotAllowed,
      ErrorCode.RateLimited,
      ErrorCode.OrgPendingReview,
      ErrorCode.OrgSuspended,
      ErrorCode.OrgRejected,
      ...DEPENDENCY_ERRORS,
    ),
    RateLimits('ip', 'credential'),
    UseGuards(WidgetKeyGuard, RateLimitGuard, PartnerAccessGuard),
  );
