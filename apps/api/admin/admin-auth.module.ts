import { DynamicModule, Module } from '@nestjs/common';
import { ADMIN_AUTH_OPTIONS, AdminAuthGuard, type AdminAuthOptions } from './admin-auth.guard.js';

/** The admin token check, for every operator route (`/admin`, `/metrics`). */
@Module({})
export class AdminAuthModule {
  static forRoot(options: AdminAuthOptions): DynamicModule {
    return {
      module: AdminAuthModule,
      global: true,
      providers: [{ provide: ADMIN_AUTH_OPTIONS, useValue: options }, AdminAuthGuard],
      exports: [ADMIN_AUTH_OPTIONS, AdminAuthGuard],
    };
  }
}
