import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthReport, HealthService, ReadinessReport } from './health.service.js';

/** Liveness and readiness probes: unauthenticated, unmetered, unversioned. */
@Controller()
export class HealthController {
  constructor(private readonly healthService: HealthService) {}

  /** Always 200 while the process serves: a database outage must not make Kubernetes restart us. */
  @Get('health')
  health(): Promise<HealthReport> {
    return this.healthService.health();
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.healthService.readiness();
    res.status(report.ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
