import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { AppError } from '#app/errors';
import { Layout } from '../components/layout.js';
import type { DashboardRequest, PageContext } from './dashboard-request.js';
import { SeeOther } from './see-other.js';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That did not work',
  413: 'Too large',
  429: 'Too many requests',
};

/**
 * Dashboard routes answer people, not programs: a redirect for `SeeOther`, otherwise an HTML
 * page with the status and a message fit to show (never a stack or SQL).
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
    if (exception instanceof SeeOther) {
      res.redirect(303, exception.url);
      return;
    }
    let status = 500;
    let message = 'Something went wrong on our side. Try again in a moment.';
    if (exception instanceof AppError) {
      status = exception.status;
      message = exception.message;
      if (exception.retryAfterMs !== null) {
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(exception.retryAfterMs / 1000))));
      }
    } else if (exception instanceof HttpException && exception.getStatus() < 500) {
      status = exception.getStatus();
      message = status === 404 ? 'There is nothing at this address.' : 'That request was refused.';
    }
    if (status >= 500) {
      this.logger.error(
        { err: exception instanceof Error ? exception.message : String(exception), path: req.path },
        'dashboard request failed',
      );
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
    void Promise.resolve(page).then((html) => res.status(status).type('html').send(html));
  }
}
