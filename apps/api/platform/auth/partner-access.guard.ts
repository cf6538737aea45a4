import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, ErrorCode } from '#app/errors';
import { ApiErrors } from '../contract/api-errors.decorator.js';
import { assertModeUsable } from '#app/partners';
import type { PartnerRequest } from './partner-auth.guard.js';

const REQUIRES_PROVIDER = 'requiresProviderActivation';

/** Quotes and swap creation need the organization's provider account (spec, Authentication 6). */
export const RequiresProviderActivation = (): MethodDecorator =>
  applyDecorators(
    SetMetadata(REQUIRES_PROVIDER, true),
    ApiErrors(ErrorCode.ProviderCredentialPending),
  );

/**
 * Authorization of an authenticated partner: an active organization (403), and where the route
 * asks for it, an activated provider account (503). A test credential works while the
 * organization is still under review and needs no provider account: partners build their
 * integration before approval (docs/decisions.md, "Test mode").
 */
@Injectable()
export class PartnerAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const partner = context.switchToHttp().getRequest<PartnerRequest>().partner;
    if (!partner) {
      throw new Error('PartnerAccessGuard needs PartnerAuthGuard before it');
    }
    assertModeUsable(partner.organizationStatus, partner.livemode);
    if (
      partner.livemode &&
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
