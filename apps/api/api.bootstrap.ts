import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger as Pino } from 'pino';
import { ApiConfig } from '#app/config';
import { configureHttpApp } from '#app/http';
import { PinoNestLogger } from '#app/logging';
import { RateLimiter } from '#app/ratelimit';
import { ApiModule } from './api.module.js';
import { ApiMetrics } from './metrics/api.metrics.js';
import { requestMetricsMiddleware } from './metrics/request-metrics.middleware.js';
import { OpenApiDocumentHolder } from './openapi/openapi.controller.js';
import { buildOpenApiDocument } from './openapi/openapi.document.js';
import { publicCorsMiddleware } from './public-quotes/public-cors.middleware.js';
import { ipRateLimitMiddleware } from './rate-limiting/ip-rate-limit.middleware.js';
import { settlePendingLimits } from './rate-limiting/request-limits.js';

/** Builds the api app exactly as production runs it; main, the embedded start and e2e tests share it. */
export async function createApiApp(
  config: ApiConfig,
  logger: Pino,
  options: { shutdownHooks?: boolean } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), {
    bodyParser: false,
    abortOnError: false,
    logger: new PinoNestLogger(logger),
  });
  const limiter = app.get(RateLimiter);
  configureHttpApp(app, {
    logger,
    trustProxyHops: config.trustProxyHops,
    beforeBody: [
      requestMetricsMiddleware(app.get(ApiMetrics)),
      publicCorsMiddleware,
      ipRateLimitMiddleware(limiter),
    ],
    beforeError: (_req, res) => settlePendingLimits(limiter, res),
    ...options,
  });
  app.get(OpenApiDocumentHolder).set(buildOpenApiDocument(app));
  return app;
}
