import type { Server } from 'node:http';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger as Pino } from 'pino';
import { Registry } from 'prom-client';
import { PollerConfig } from '#app/config';
import { addDependencyGauge, HealthService, startProbeServer } from '#app/health';
import { PinoNestLogger } from '#app/logging';
import { MailMetrics } from '#app/mail';
import { PollMetrics } from '#app/polling';
import { WebhookMetrics } from '#app/webhooks';
import { PollerModule } from './poller.module.js';
import { SwapPollerTick } from './swap-poller.tick.js';

export interface PollerProcess {
  context: INestApplicationContext;
  probes: Server;
  /** This poller's lease owner. */
  owner: string;
  close(): Promise<void>;
}

/**
 * The poller: an application context (no HTTP app) plus its probe server with `/metrics` behind
 * the admin token.
 */
export async function startPoller(
  config: PollerConfig,
  logger: Pino,
  options: { shutdownHooks?: boolean; host?: string } = {},
): Promise<PollerProcess> {
  const context = await NestFactory.createApplicationContext(PollerModule.forRoot(config), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  if (options.shutdownHooks ?? true) {
    context.enableShutdownHooks();
  }
  const health = context.get(HealthService);
  const metrics = Registry.merge([
    context.get(PollMetrics).registry,
    context.get(WebhookMetrics).registry,
    context.get(MailMetrics).registry,
  ]);
  addDependencyGauge(metrics, health);
  const probes = await startProbeServer(
    config.healthPort,
    health,
    { source: metrics, adminToken: config.adminToken },
    options.host,
  );
  return {
    context,
    probes,
    owner: context.get(SwapPollerTick).owner,
    close: async () => {
      await new Promise<void>((resolve) => probes.close(() => resolve()));
      await context.close();
    },
  };
}
