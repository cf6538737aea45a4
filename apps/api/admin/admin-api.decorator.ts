import { applyDecorators, UseGuards } from '@nestjs/common';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { AdminAuthGuard } from './admin-auth.guard.js';

/** An operator endpoint: counted per IP first, so token guesses are throttled too, then the admin token. */
export const AdminApi = (): ClassDecorator =>
  applyDecorators(RateLimits('ip'), UseGuards(RateLimitGuard, AdminAuthGuard));
