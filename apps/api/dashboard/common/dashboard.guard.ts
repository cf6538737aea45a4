import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { DashboardSessionsService } from '#app/accounts';
import { AppError, ErrorCode } from '#app/errors';
import { dashboardCookie, readCookie, SESSION_COOKIE } from './cookies.js';
import type { DashboardRequest } from './dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from './dashboard.config.js';
import { DashboardCsrf } from './dashboard.csrf.js';
import { DASHBOARD_ACCESS, type DashboardAccess } from './access.decorators.js';
import { type FlashMessage, takeFlash } from './flash.js';
import { isSameOrigin } from '../../platform/site/origin.js';
import { AnsweredInstead, FormAnswer } from './form-answer.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The sign-in page, remembering the page that was asked for when it can be returned to. */
function loginUrl(next?: string): string {
  return next === undefined || next === '/partner'
    ? '/partner/login'
    : `/partner/login?next=${encodeURIComponent(next)}`;
}

/**
 * Every dashboard route: finds the session (only the `partner_session` cookie counts; partner
 * API credentials mean nothing here), sends the unauthenticated to sign in, checks the role,
 * and refuses a state-changing request without the CSRF token or from another origin.
 */
@Injectable()
export class DashboardGuard implements CanActivate {
  private readonly logger = new Logger(DashboardGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: DashboardSessionsService,
    private readonly csrf: DashboardCsrf,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<DashboardRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const access = this.reflector.getAllAndOverride<DashboardAccess | undefined>(DASHBOARD_ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) {
      this.logger.error(
        { path: req.path },
        'dashboard route declares neither @Roles nor @PublicPage',
      );
      throw new AppError(ErrorCode.Forbidden, 'You cannot use this page.');
    }
    const cookie = readCookie(req, SESSION_COOKIE);
    const signedIn = await this.sessions.resolve(cookie);
    if (!signedIn && cookie !== undefined) {
      res.clearCookie(SESSION_COOKIE, dashboardCookie(req));
    }
    req.dashboard = { path: req.path, csrfToken: '', signedIn, flash: null };
    if (access.kind === 'roles' && !signedIn) {
      throw new AnsweredInstead(
        FormAnswer.redirect(loginUrl(SAFE_METHODS.has(req.method) ? req.originalUrl : undefined)),
      );
    }
    if (!SAFE_METHODS.has(req.method)) {
      if (!isSameOrigin(req, this.settings.publicUrl)) {
        throw new AppError(ErrorCode.Forbidden, 'This form was sent from another site.');
      }
      const tokenValid =
        this.csrf.valid(req) || (access.kind === 'public' && this.csrf.validBeforeSession(req));
      if (!tokenValid) {
        throw new AppError(
          ErrorCode.Forbidden,
          'This form has expired or was not sent from this site. Reload the page and try again.',
        );
      }
    }
    if (access.kind === 'roles' && !access.roles.includes(signedIn!.user.role)) {
      throw new AppError(ErrorCode.Forbidden, 'Your role does not allow this.');
    }
    // Made when a page first shows a form: a request that only redirects leaves the cookie as is.
    let token: string | undefined;
    Object.defineProperty(req.dashboard, 'csrfToken', {
      get: () => (token ??= this.csrf.token(req, res)),
      enumerable: true,
    });
    let flash: FlashMessage | null | undefined;
    Object.defineProperty(req.dashboard, 'flash', {
      get: () => (flash === undefined ? (flash = takeFlash(req, res)) : flash),
      enumerable: true,
    });
    return true;
  }
}
