import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedPartner } from '#app/partners';
import type { PartnerRequest } from './partner-auth.guard.js';

/** The partner `PartnerAuthGuard` authenticated for this request. */
export const CurrentPartner = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedPartner => {
    const partner = context.switchToHttp().getRequest<PartnerRequest>().partner;
    if (!partner) {
      throw new Error('CurrentPartner used on a route without PartnerAuthGuard');
    }
    return partner;
  },
);
