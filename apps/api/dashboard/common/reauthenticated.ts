import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  type Type,
  UseGuards,
} from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { ReauthenticationService, type SignedIn } from '#app/accounts';
import type { DashboardRequest, PageContext } from './dashboard-request.js';
import { formFields } from './dashboard.decorators.js';
import { AnsweredInstead, FormAnswer } from './form-answer.js';
import { type ReauthRefusal, reauthRefusalText } from './reauth.js';

const REAUTHENTICATED = 'dashboardReauthenticated';

/** A refused re-authentication, for the page that shows it. */
export interface RefusedReauth {
  ctx: PageContext;
  me: SignedIn;
  req: DashboardRequest;
  /** What the person reads: what to give, that it was not right, or to wait. */
  message: string;
  refusal: ReauthRefusal;
}

/** How a route answers a refused re-authentication. */
export type ReauthRefusalAnswer<C> =
  /** Back to this page (303) with the refusal as its message. */
  | { back: string }
  /** The form's page again, with the refusal in its "Confirm it's you" (`again` of the controller). */
  | {
      again: (controller: C, refused: RefusedReauth) => JSX.Element | Promise<JSX.Element>;
      /** The status when no proof was given and when a proof was wrong (throttled is 429). */
      status: { missing: number; wrong: number };
    }
  /** `{ message }` as JSON (200), for a script that asks. */
  | { json: true };

interface ReauthenticatedOptions {
  purpose: string;
  refused: ReauthRefusalAnswer<unknown>;
}

/**
 * A sensitive route: it runs only for a session that re-authenticated within 5 minutes, or whose
 * form carries a right proof (a password or an authenticator code in the same form; wrong ones
 * count with failed sign-ins). Otherwise the handler is never reached: the route answers the
 * refusal as `refused` says, the text naming `purpose` ("to change the team").
 */
export function Reauthenticated<C>(
  purpose: string,
  refused: ReauthRefusalAnswer<C>,
): MethodDecorator {
  return applyDecorators(
    SetMetadata(REAUTHENTICATED, { purpose, refused } as ReauthenticatedOptions),
    UseGuards(ReauthenticatedGuard),
  );
}

/** Runs after `DashboardGuard` (a method guard after the controller's): the session is known. */
@Injectable()
export class ReauthenticatedGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly reauth: ReauthenticationService,
    private readonly moduleRef: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const options = this.reflector.get<ReauthenticatedOptions | undefined>(
      REAUTHENTICATED,
      context.getHandler(),
    );
    const req = context.switchToHttp().getRequest<DashboardRequest>();
    const ctx = req.dashboard;
    if (!options || !ctx?.signedIn) {
      throw new Error('@Reauthenticated needs a signed-in route behind DashboardGuard');
    }
    const me = ctx.signedIn;
    const confirmed = await this.reauth.ensure(me, formFields(req.body), req.ip ?? 'unknown');
    if (confirmed.ok) {
      return true;
    }
    const message = reauthRefusalText(confirmed, options.purpose);
    throw new AnsweredInstead(
      await this.answer(context.getClass(), options.refused, {
        ctx,
        me,
        req,
        message,
        refusal: confirmed,
      }),
    );
  }

  private async answer(
    controller: Type,
    refused: ReauthRefusalAnswer<unknown>,
    refusal: RefusedReauth,
  ): Promise<FormAnswer> {
    if ('back' in refused) {
      return FormAnswer.refused(refused.back, refusal.message);
    }
    if ('json' in refused) {
      return FormAnswer.json({ message: refusal.message });
    }
    const throttled = refusal.refusal.refusal === 'throttled' ? refusal.refusal : null;
    const status = throttled ? 429 : refused.status[refusal.refusal.refusal as 'missing' | 'wrong'];
    const page = await refused.again(this.moduleRef.get(controller, { strict: false }), refusal);
    return FormAnswer.page(page, status, { retryAfterMs: throttled?.retryAfterMs });
  }
}
