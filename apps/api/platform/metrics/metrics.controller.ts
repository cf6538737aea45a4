import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminAuthGuard } from '../auth/admin-auth.guard.js';
import { ApiMetrics } from './api.metrics.js';

/** Prometheus text format, behind the admin token (docs/decisions.md, "Operating the service"). */
@ApiExcludeController()
@UseGuards(AdminAuthGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @Get()
  render(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
