import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { requestContext } from '#app/logging';
import { AuthenticatedPartner, CredentialAuthenticator } from '#app/partners';

export interface PartnerRequest extends Request {
  partner?: AuthenticatedPartner;
}

/**
 * Authentication of partner endpoints: a valid bearer or 401 (spec, Authentication 7). A refused
 * attempt still spends its IP's budget (`RequestLimits.countRejected`), never the key it named.
 */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(private readonly authenticator: CredentialAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<PartnerRequest>();
    req.partner = await this.authenticator.authenticate(req.headers.authorization);
    const store = requestContext.getStore();
    if (store) {
      store.orgId = req.partner.organizationId;
      store.livemode = req.partner.livemode;
    }
    return true;
  }
}
