import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { PartnerAccessGuard } from './partner-access.guard.js';
import { PartnerAuthGuard } from './partner-auth.guard.js';

/**
 * A partner endpoint: authenticated (401), then counted per IP and per credential in one round
 * trip (429), then authorized by organization state (403, 503).
 */
export const PartnerApi = (): ClassDecorator =>
  applyDecorators(
    ApiBearerAuth(),
    RateLimits('ip', 'credential'),
    UseGuards(PartnerAuthGuard, RateLimitGuard, PartnerAccessGuard),
  );
