import { SetMetadata } from '@nestjs/common';
import type { DashboardRole } from '#app/accounts';

export const DASHBOARD_ACCESS = 'dashboardAccess';

/** Who may use a route: anyone (sign-in pages) or signed-in users of the listed roles. */
export type DashboardAccess =
  { kind: 'public' } | { kind: 'roles'; roles: readonly DashboardRole[] };

/**
 * Signed-in users of these roles only. Every dashboard route declares `@Roles` or
 * `@PublicPage`; one that declares neither is refused (fail closed).
 */
export const Roles = (...roles: DashboardRole[]): MethodDecorator & ClassDecorator =>
  SetMetadata(DASHBOARD_ACCESS, { kind: 'roles', roles } satisfies DashboardAccess);

/** Any signed-in user, viewers included (read-only pages). */
export const AnyRole = (): MethodDecorator & ClassDecorator =>
  Roles('owner', 'developer', 'viewer');

/** No sign-in needed (sign-in, sign-up, links from mails). CSRF and origin checks still apply. */
export const PublicPage = (): MethodDecorator & ClassDecorator =>
  SetMetadata(DASHBOARD_ACCESS, { kind: 'public' } satisfies DashboardAccess);
