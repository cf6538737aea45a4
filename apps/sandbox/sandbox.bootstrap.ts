import type { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { Logger as Pino } from 'pino';
import { DEFAULT_HTTP_SERVER, type SandboxConfig } from '#app/config';
import { BODY_LIMIT_BYTES, configureHttpApp } from '#app/http';
import { PinoNestLogger } from '#app/logging';
import { SandboxModule } from './sandbox.module.js';
import { resolveSandboxOptions, type SandboxOptions } from './sandbox.options.js';

export interface SandboxServer {
  app: INestApplication;
  /** Changelly's JSON-RPC endpoint, `http://127.0.0.1:<port>/v2`. */
  url: string;
  /** ChangeNOW's base URL (`CHANGENOW_URL`), `http://127.0.0.1:<port>/changenow`. */
  changenowUrl: string;
  baseUrl: string;
  close(): Promise<void>;
}

export interface StartSandboxOptions extends SandboxOptions {
  /** Interface to listen on [127.0.0.1]. */
  host?: string;
  /** Off when several apps share one process and it handles signals itself (embedded start). */
  shutdownHooks?: boolean;
}

/** Starts the sandbox provider on `config.port` (0: an ephemeral port). */
export async function startSandbox(
  config: SandboxConfig,
  logger: Pino,
  options: StartSandboxOptions = {},
): Promise<SandboxServer> {
  const app = await NestFactory.create<NestExpressApplication>(
    SandboxModule.forRoot(config, resolveSandboxOptions(options)),
    { bodyParser: false, logger: new PinoNestLogger(logger) },
  );
  // The signature covers the exact body bytes, so /v2 keeps them raw; the JSON parser that
  // configureHttpApp installs afterwards sees a consumed body and leaves it alone. ChangeNOW's
  // API reads its own bodies too, so a malformed one gets ChangeNOW's answer.
  app.use('/v2', express.raw({ type: () => true, limit: BODY_LIMIT_BYTES }));
  app.use('/changenow', express.raw({ type: () => true, limit: BODY_LIMIT_BYTES }));
  configureHttpApp(app, {
    logger,
    timeouts: DEFAULT_HTTP_SERVER,
    shutdownHooks: options.shutdownHooks,
  });
  await app.listen(config.port, options.host ?? '127.0.0.1');
  const server = app.getHttpServer();
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    url: `${baseUrl}/v2`,
    changenowUrl: `${baseUrl}/changenow`,
    baseUrl,
    close: async () => {
      // A held `timeout` answer must not keep the server open.
      server.closeAllConnections();
      await app.close();
    },
  };
}
