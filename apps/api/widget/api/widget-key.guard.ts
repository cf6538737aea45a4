import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DASHBOARD_CONFIG, InjectConfig, type DashboardConfig } from '#app/config';
import { AppError, ErrorCode } from '#app/errors';
import { requestContext } from '#app/logging';
import { WidgetKeyAuthenticator, type WidgetCaller } from '#app/widgets';
import type { PartnerRequest } from '../../platform/auth/partner-auth.guard.js';
import { originStanding } from './widget-origin.js';

export interface WidgetRequest extends PartnerRequest {
  widget?: WidgetCaller;
}

/**
 * Authentication of the widget API: a known, unrevoked `X-Widget-Key` (401), then its origins
 * (403 `origin_not_allowed`). A listed origin gets its CORS headers here, before any later guard
 * can refuse, so the partner page can read every answer. The key's organization and mode then
 * travel as `req.partner`, the caller every shared service and guard knows.
 */
@Injectable()
export class WidgetKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: WidgetKeyAuthenticator,
    @InjectConfig(DASHBOARD_CONFIG) private readonly site: DashboardConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<WidgetRequest>();
    const caller = await this.authenticator.authenticate(req.headers['x-widget-key']);
    const standing = originStanding(req, caller.allowedOrigins, this.site.publicUrl);
    if (standing === 'refused') {
      throw new AppError(
        ErrorCode.OriginNotAllowed,
        'This origin may not use this widget key: add it to the key\u2019s allowed origins.',
      );
    }
    if (standing === 'listed') {
      const res = http.getResponse<Response>();
      res.setHeader('Access-Control-Allow-Origin', String(req.headers.origin));
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', WIDGET_EXPOSED_HEADERS);
    }
    req.widget = caller;
    req.partner = caller.partner;
    const store = requestContext.getStore();
    if (store) {
      store.orgId = caller.partner.organizationId;
      store.livemode = caller.partner.livemode;
    }
    return true;
  }
}

/** What a partner page may read of an answer besides the CORS-safelisted headers. */
export const WIDGET_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Idempotent-Replayed',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
].join(', ');
