import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppError, ErrorCode } from '#app/errors';
import { requestContext } from '#app/logging';
import { AuthenticatedPartner, CredentialAuthenticator } from '#app/partners';
import { POLICIES, rateLimited, RateLimiter } from '#app/ratelimit';
import { settleLimits } from '../rate-limiting/request-limits.js';

const REQUIRES_PROVIDER = 'requiresProviderActivation';

/** Quotes and swap creation need the organization's provider account (spec, Authentication 6). */
export const RequiresProviderActivation = (): MethodDecorator =>
  SetMetadata(REQUIRES_PROVIDER, true);

export interface PartnerRequest extends Request {
  partner?: AuthenticatedPartner;
}

const ORG_STATE_ERRORS = {
  pending_review: () =>
    new AppError(ErrorCode.OrgPendingReview, 'Your organization is under review.'),
  suspended: () => new AppError(ErrorCode.OrgSuspended, 'Your organization is suspended.'),
  rejected: () =>
    new AppError(ErrorCode.OrgRejected, 'Your organization application was not approved.'),
} as const;

/**
 * Partner endpoints: a valid bearer (401), an active organization (403), and where the route
 * asks for it, an activated provider account (503).
 */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: CredentialAuthenticator,
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<PartnerRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const partner = await this.authenticator
      .authenticate(req.headers.authorization)
      .catch(async (error: unknown) => {
        // A failed attempt spends its IP's budget, never the quota of the key it named.
        const nearest = await settleLimits(this.limiter, res);
        throw nearest?.exceeded ? rateLimited(nearest) : error;
      });
    req.partner = partner;
    const nearest = await settleLimits(this.limiter, res, [
      { policy: POLICIES.perCredential, subject: partner.credentialId },
    ]);
    if (nearest?.exceeded) {
      throw rateLimited(nearest);
    }
    const store = requestContext.getStore();
    if (store) {
      store.orgId = partner.organizationId;
    }
    if (partner.organizationStatus !== 'active') {
      throw ORG_STATE_ERRORS[partner.organizationStatus]();
    }
    if (
      this.reflector.get<boolean>(REQUIRES_PROVIDER, context.getHandler()) &&
      !partner.providerActivated
    ) {
      throw new AppError(
        ErrorCode.ProviderCredentialPending,
        'Your account activation is pending; quotes and swaps become available within 1-3 business days.',
      );
    }
    return true;
  }
}
