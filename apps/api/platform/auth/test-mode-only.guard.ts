import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';
import type { PartnerRequest } from './partner-auth.guard.js';

/** Test helpers move swaps by hand: a live credential must never reach them. */
@Injectable()
export class TestModeOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const partner = context.switchToHttp().getRequest<PartnerRequest>().partner;
    if (!partner) {
      throw new Error('TestModeOnlyGuard needs PartnerAuthGuard before it');
    }
    if (partner.livemode) {
      throw new AppError(
        ErrorCode.TestModeOnly,
        'Test helpers work with test credentials only: authenticate with a pk_test_ key and its sk_test_ secret.',
      );
    }
    return true;
  }
}
