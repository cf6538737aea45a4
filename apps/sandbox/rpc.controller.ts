import { Controller, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RpcService } from './rpc.service.js';

/** The provider's single JSON-RPC endpoint; the body arrives raw (see sandbox.bootstrap.ts). */
@Controller('v2')
export class RpcController {
  constructor(private readonly rpc: RpcService) {}

  @Post()
  async call(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body: unknown = req.body;
    const reply = await this.rpc.handle(
      Buffer.isBuffer(body) ? body : Buffer.alloc(0),
      req.header('x-api-key'),
      req.header('x-api-signature'),
    );
    res.status(reply.status).type(reply.contentType).send(reply.body);
  }
}
