import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { ApiErrors, DEPENDENCY_ERRORS } from '../contract/api-errors.decorator.js';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { PartnerAccessGuard } from './partner-access.guard.js';
import { PartnerAuthGuard } from './partner-auth.guard.js';
import { PARTNER_SECURITY } from '../openapi/security-schemes.js';

/**
 * A partner endpoint: authenticated (401), then counted per IP and per credential in one round
 * trip (429), then authorized by organization state (403, 503). The document lists those errors on
 * every route of the controller.
 */
export const PartnerApi = (): ClassDecorator =>
  applyDecorators(
    ApiBearerAuth(PARTNER_SECURITY),
    ApiErrors(
      ErrorCode.Unauthenticated,
      ErrorCode.RateLimited,
      ErrorCode.OrgPendingReview,
      ErrorCode.OrgSuspended,
      ErrorCode.OrgRejected,
      ...DEPENDENCY_ERRORS,
    ),
    RateLimits('ip', 'credential'),
    UseGuards(PartnerAuthGuard, RateLimitGuard, PartnerAccessGuard),
  );
