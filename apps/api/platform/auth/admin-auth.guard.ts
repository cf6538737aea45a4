import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ADMIN_CONFIG, InjectConfig, type AdminConfig } from '#app/config';
import { AppError, ErrorCode } from '#app/errors';
import { adminBearerMatches } from '#app/input';

/**
 * `/admin` is for operators only: the admin token, never a partner credential (docs/decisions.md,
 * "Operating the service").
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(@InjectConfig(ADMIN_CONFIG) private readonly admin: AdminConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!adminBearerMatches(request.headers.authorization, this.admin.token)) {
      throw new AppError(ErrorCode.Unauthenticated, 'Missing or invalid admin token.');
    }
    return true;
  }
}
