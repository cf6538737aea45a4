import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, ErrorCode } from '#app/errors';
import { bearerToken } from '#app/input';

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * True when `Authorization` is `Bearer <token>` for exactly this token. Both sides are hashed
 * first so the comparison takes the same time whatever the presented value's length or content.
 */
export function adminBearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = bearerToken(authorization) ?? '';
  return timingSafeEqual(sha256(presented), sha256(token)) && presented.length > 0;
}

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
