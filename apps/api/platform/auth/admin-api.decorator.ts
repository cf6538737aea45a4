import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { ApiErrors, DEPENDENCY_ERRORS } from '../contract/api-errors.decorator.js';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { AdminAuthGuard } from './admin-auth.guard.js';
import { ADMIN_SECURITY } from '../openapi/security-schemes.js';

/** An operator endpoint: counted per IP first, so token guesses are throttled too, then the admin token. */
export const AdminApi = (): ClassDecorator =>
  applyDecorators(
    ApiBearerAuth(ADMIN_SECURITY),
    ApiErrors(ErrorCode.Unauthenticated, ErrorCode.RateLimited, ...DEPENDENCY_ERRORS),
    RateLimits('ip'),
    UseGuards(RateLimitGuard, AdminAuthGuard),
  );
