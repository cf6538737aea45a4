import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, ErrorCode } from '#app/errors';
import { adminBearerMatches } from '#app/input';

export interface AdminAuthOptions {
  /** `ADMIN_TOKEN`. */
  token: string;
}

export const ADMIN_AUTH_OPTIONS = Symbol('ADMIN_AUTH_OPTIONS');

/**
 * `/admin` is for operators only: the admin token, never a partner credential (docs/decisions.md,
 * "Operating the service").
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(@Inject(ADMIN_AUTH_OPTIONS) private readonly options: AdminAuthOptions) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!adminBearerMatches(request.headers.authorization, this.options.token)) {
      throw new AppError(ErrorCode.Unauthenticated, 'Missing or invalid admin token.');
    }
    return true;
  }
}
