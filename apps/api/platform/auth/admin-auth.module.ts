import { Module } from '@nestjs/common';
import { APP_SETTINGS, requireSetting, type AppSettings } from '#app/config';
import { ADMIN_AUTH_OPTIONS, AdminAuthGuard, type AdminAuthOptions } from './admin-auth.guard.js';

/**
 * The admin token check (`APP_SETTINGS.adminToken`), for every operator route (`/admin`,
 * `/metrics`).
 */
@Module({
  providers: [
    {
      provide: ADMIN_AUTH_OPTIONS,
      useFactory: (settings: AppSettings): AdminAuthOptions => ({
        token: requireSetting(settings, 'adminToken'),
      }),
      inject: [APP_SETTINGS],
    },
    AdminAuthGuard,
  ],
  exports: [ADMIN_AUTH_OPTIONS, AdminAuthGuard],
})
export class AdminAuthModule {}
