import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthReport, HealthService, ReadinessReport } from './health.service.js';

const UP_DOWN = { type: 'string', enum: ['up', 'down'] };

const HEALTH_SCHEMA = {
  type: 'object',
  required: ['ok', 'db', 'latency_ms', 'version', 'env'],
  properties: {
    ok: { type: 'boolean' },
    db: UP_DOWN,
    latency_ms: { type: 'number', description: 'Time the database took to answer a ping.' },
    version: { type: 'string', example: '1.0.0' },
    env: { type: 'string', example: 'production' },
  },
};

const READINESS_SCHEMA = {
  type: 'object',
  required: ['ok', 'checks'],
  properties: {
    ok: { type: 'boolean' },
    checks: {
      type: 'object',
      required: ['db', 'redis'],
      properties: {
        db: { type: 'string', enum: ['up', 'down', 'migrations_pending'] },
        redis: UP_DOWN,
      },
    },
  },
};

/** Liveness and readiness probes: unauthenticated, unmetered, unversioned. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly healthService: HealthService) {}

  /** Always 200 while the process serves: a database outage must not make Kubernetes restart us. */
  @Get('health')
  @ApiOperation({
    summary: 'Liveness',
    description:
      'Answers 200 while the process serves, with the database state for information: a database ' +
      'outage shows as `db: "down"`, not as a failure.',
  })
  @ApiResponse({ status: 200, description: 'The process serves.', schema: HEALTH_SCHEMA })
  health(): Promise<HealthReport> {
    return this.healthService.health();
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness',
    description:
      'Answers 200 when the database (with every migration applied) and Redis answer, else 503 ' +
      'with the same body naming what is not ready.',
  })
  @ApiResponse({ status: 200, description: 'Ready to serve.', schema: READINESS_SCHEMA })
  @ApiResponse({
    status: 503,
    description: 'Not ready; `checks` says why.',
    schema: READINESS_SCHEMA,
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.healthService.readiness();
    res.status(report.ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
