import {
  applyDecorators,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { SignedIn } from '#app/accounts';
import { RateLimitGuard } from '../../platform/rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../../platform/rate-limiting/rate-limits.decorator.js';
export * from './access.decorators.js';
import type { DashboardRequest, PageContext } from './dashboard-request.js';
import { DashboardExceptionFilter } from './dashboard-exception.filter.js';
import { DashboardGuard } from './dashboard.guard.js';
import { FormAnswerInterceptor } from './form-answer.js';

/**
 * A dashboard controller under `/partner/<path>`: the per-IP limit, the session/CSRF/role
 * guard, HTML error pages, the form answers its handlers return (`FormAnswer`), and kept out of
 * the API's OpenAPI documents.
 */
export function DashboardController(path = ''): ClassDecorator {
  return applyDecorators(
    ApiExcludeController(),
    Controller(path === '' ? 'partner' : `partner/${path}`),
    RateLimits('ip'),
    UseGuards(RateLimitGuard, DashboardGuard),
    UseInterceptors(FormAnswerInterceptor),
    UseFilters(DashboardExceptionFilter),
  );
}

function pageContext(context: ExecutionContext): PageContext {
  const page = context.switchToHttp().getRequest<DashboardRequest>().dashboard;
  if (!page) {
    throw new Error('DashboardGuard must run before a dashboard route');
  }
  return page;
}

/** The page context (CSRF token, signed-in user, flash) to render with. */
export const Page = createParamDecorator((_: unknown, context: ExecutionContext) =>
  pageContext(context),
);

/** The signed-in user, session and organization; only on `@Roles` routes. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const signedIn: SignedIn | null = pageContext(context).signedIn;
  if (!signedIn) {
    throw new Error('CurrentUser on a route that does not require sign-in');
  }
  return signedIn;
});

/**
 * A submitted form's fields, as strings: a repeated field or anything not a string is dropped,
 * so a handler only ever sees text (and validates it).
 */
export function formFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (typeof value === 'string') {
        fields[name] = value;
      }
    }
  }
  return fields;
}

/** The submitted form's fields, as strings (`formFields`). */
export const FormBody = createParamDecorator((_: unknown, context: ExecutionContext) =>
  formFields(context.switchToHttp().getRequest<DashboardRequest>().body),
);
