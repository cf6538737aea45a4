import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CHANGENOW_API_KEY_HEADER, type ChangeNowOperation } from '#app/provider';
import { ChangeNowApiService } from './changenow-api.service.js';

/**
 * The ChangeNOW-style REST API under `/changenow/v2` (docs/decisions.md, "The sandbox serves
 * both"); bodies arrive raw (see sandbox.bootstrap.ts) so refusals use ChangeNOW's shape.
 */
@Controller('changenow/v2')
export class ChangeNowController {
  constructor(private readonly api: ChangeNowApiService) {}

  @Get('exchange/currencies')
  currencies(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('currencies', req, res);
  }

  @Get('exchange/range')
  range(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('range', req, res);
  }

  @Get('exchange/estimated-amount')
  estimate(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('estimated-amount', req, res);
  }

  @Post('exchange')
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('exchange', req, res);
  }

  @Get('exchange/by-id')
  byId(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('by-id', req, res);
  }

  @Get('exchanges')
  exchanges(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('exchanges', req, res);
  }

  @Get('validate/address')
  validateAddress(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve('validate-address', req, res);
  }

  private async serve(operation: ChangeNowOperation, req: Request, res: Response): Promise<void> {
    const body: unknown = req.body;
    const reply = await this.api.handle(operation, {
      apiKey: req.header(CHANGENOW_API_KEY_HEADER),
      query: req.query,
      body: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
    });
    res
      .status(reply.status)
      .set(reply.headers ?? {})
      .type(reply.contentType)
      .send(reply.body);
  }
}
