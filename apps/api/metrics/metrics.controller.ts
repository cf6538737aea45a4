import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminAuthGuard } from '../admin/admin-auth.guard.js';
import { ApiMetrics } from './api.metrics.js';

/** Prometheus text format, behind the admin token (DECISIONS §5). */
@ApiExcludeController()
@UseGuards(AdminAuthGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4')
  render(): string {
    return this.metrics.registry.render();
  }
}
