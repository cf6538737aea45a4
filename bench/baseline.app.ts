import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

const CONSTANT = { ok: true };

@Controller()
class BaselineController {
  @Get()
  constant(): { ok: boolean } {
    return CONSTANT;
  }
}

@Module({ controllers: [BaselineController] })
class BaselineModule {}

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The ceiling every scenario is compared with: the same framework and HTTP stack with nothing in
 * it, so a ratio shows what the api's own work (auth, limits, database, logging) costs.
 */
export async function startBaseline(): Promise<BaselineServer> {
  const app = await NestFactory.create<NestExpressApplication>(BaselineModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
