import { Module } from '@nestjs/common';
import { AdminAuthGuard } from './admin-auth.guard.js';

/** The admin token check (`ADMIN_CONFIG`), for every operator route (`/admin`, `/metrics`). */
@Module({
  providers: [AdminAuthGuard],
  exports: [AdminAuthGuard],
})
export class AdminAuthModule {}
