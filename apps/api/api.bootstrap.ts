import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger as Pino } from 'pino';
import { ApiConfig } from '#app/config';
import { addDependencyGauge, HealthService } from '#app/health';
import { configureHttpApp, strictExpressAdapter, type PipelineStep } from '#app/http';
import { PinoNestLogger } from '#app/logging';
import { ApiModule } from './api.module.js';
import { dashboardHttpMiddleware } from './dashboard/common/dashboard-http.middleware.js';
import { ApiMetrics } from './platform/metrics/api.metrics.js';
import { requestMetricsMiddleware } from './platform/metrics/request-metrics.middleware.js';
import { OpenApiDocumentHolder } from './platform/openapi/openapi.controller.js';
import { buildOpenApiDocuments } from './platform/openapi/openapi.document.js';
import { publicCorsMiddleware } from './partner-api/public-quotes/public-cors.middleware.js';
import { RequestLimits } from './platform/rate-limiting/request-limits.js';
import { WidgetKeyAuthenticator } from '#app/widgets';
import { widgetPreflightMiddleware } from './widget/api/widget-cors.middleware.js';

/** Builds the api app exactly as production runs it; main, the embedded start and e2e tests share it. */
export async function createApiApp(
  config: ApiConfig,
  logger: Pino,
  options: { shutdownHooks?: boolean; without?: ReadonlySet<PipelineStep> } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    ApiModule.forRoot(config),
    strictExpressAdapter(),
    {
      bodyParser: false,
      abortOnError: false,
      logger: new PinoNestLogger(logger),
    },
  );
  const limits = app.get(RequestLimits);
  const metrics = app.get(ApiMetrics);
  addDependencyGauge(metrics.registry, app.get(HealthService));
  configureHttpApp(app, {
    logger,
    trustProxyHops: config.trustProxyHops,
    timeouts: config.http,
    beforeBody: [
      ...(options.without?.has('request-metrics') ? [] : [requestMetricsMiddleware(metrics)]),
      publicCorsMiddleware,
      dashboardHttpMiddleware(),
      widgetPreflightMiddleware(app.get(WidgetKeyAuthenticator), limits, metrics),
    ],
    beforeError: (req, res) => limits.countRejected(req, res),
    ...options,
  });
  app.get(OpenApiDocumentHolder).set(buildOpenApiDocuments(app));
  return app;
}
