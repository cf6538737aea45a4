import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { AppError, ErrorCode, INTERNAL_ERROR_MESSAGE, logHttpError, toAppError } from '#app/errors';
import { Layout } from '../components/layout.js';
import type { DashboardRequest, PageContext } from './dashboard-request.js';
import { AnsweredInstead } from './form-answer.js';
import { retryAfterSeconds } from './retry-after.js';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That did not work',
  413: 'Too large',
  429: 'Too many requests',
  503: 'Unavailable for a moment',
};

/** An outage's page asks a browser or a person to come back after this, unless it says. */
const OUTAGE_RETRY_AFTER_MS = 5000;

/**
 * Dashboard routes answer people, not programs: the answer a guard gave instead of the handler
 * (`AnsweredInstead`: to sign in, a refused re-authentication), otherwise an HTML
 * page. Errors map through the API's one mapper (`toAppError`), so a status means the same on
 * every surface: an outage is a 503 page with `Retry-After`, an unexpected error a 500 page whose
 * stack goes to the log, never to the page; no page shows a stack or SQL.
 */
@Catch()
export class DashboardExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(DashboardExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<DashboardRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      return;
    }
    if (exception instanceof AnsweredInstead) {
      void exception.answer.write(req, res).then(
        (body) => res.send(body),
        (failed: unknown) => this.catch(failed, host),
      );
      return;
    }
    const mapped = toAppError(exception);
    logHttpError(exception, mapped, req, this.logger);
    const error = mapped ?? new AppError(ErrorCode.Internal, INTERNAL_ERROR_MESSAGE);
    const status = error.status;
    const message = error.message;
    const retryAfterMs = error.retryAfterMs ?? (status === 503 ? OUTAGE_RETRY_AFTER_MS : null);
    if (retryAfterMs !== null) {
      res.setHeader('Retry-After', retryAfterSeconds(retryAfterMs));
    }
    const ctx: PageContext = req.dashboard ?? {
      path: req.path,
      csrfToken: '',
      signedIn: null,
      flash: null,
    };
    const title = TITLES[status] ?? 'Something went wrong';
    const page = (
      <Layout ctx={{ ...ctx, flash: null }} title={title}>
        <h1 safe>{title}</h1>
        <p role="alert" safe>
          {message}
        </p>
        <p>
          <a href={ctx.signedIn ? '/partner' : '/partner/login'}>
            {ctx.signedIn ? 'Back to the overview' : 'Go to sign in'}
          </a>
        </p>
      </Layout>
    );
    void Promise.resolve(page).then(
      (html) => res.status(status).type('html').send(html),
      (failed: unknown) => {
        logHttpError(failed, null, req, this.logger);
        res.status(status).type('text').send(message);
      },
    );
  }
}
