import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import type { SandboxStats } from './call.stats.js';
import { DepositDto } from './dto/deposit.dto.js';
import { FaultDto } from './dto/fault.dto.js';
import { ForceStatusDto } from './dto/force-status.dto.js';
import { ExchangeService } from './exchange.service.js';
import type { Fault } from './fault.book.js';
import { RpcService } from './rpc.service.js';
import type { SandboxTransactionView } from './wire.mapper.js';

/**
 * Test and demo controls (docs/decisions.md, "The provider's wire protocol"); errors use the
 * service's envelope.
 */
@Controller('sandbox')
export class ControlController {
  constructor(
    private readonly exchange: ExchangeService,
    private readonly rpc: RpcService,
  ) {}

  @Get('transactions/:id')
  get(@Param('id') id: string): { transaction: SandboxTransactionView } {
    return { transaction: this.exchange.view(id) };
  }

  @Post('transactions/:id/deposit')
  @HttpCode(200)
  deposit(
    @Param('id') id: string,
    @Body() body: DepositDto,
  ): { transaction: SandboxTransactionView } {
    return { transaction: this.exchange.deposit(id, body.amount, body.late ?? false) };
  }

  @Post('transactions/:id/status')
  @HttpCode(200)
  forceStatus(
    @Param('id') id: string,
    @Body() body: ForceStatusDto,
  ): { transaction: SandboxTransactionView } {
    return { transaction: this.exchange.forceStatus(id, body.status) };
  }

  @Post('faults')
  @HttpCode(201)
  addFault(@Body() body: FaultDto): { faults: Fault[] } {
    this.rpc.faults.add({
      method: body.method,
      mode: body.mode,
      remaining: body.count ?? 1,
      ...(body.code === undefined ? {} : { code: body.code }),
      ...(body.message === undefined ? {} : { message: body.message }),
      ...(body.delayMs === undefined ? {} : { delayMs: body.delayMs }),
    });
    return { faults: this.rpc.faults.list() };
  }

  @Get('faults')
  faults(): { faults: Fault[] } {
    return { faults: this.rpc.faults.list() };
  }

  @Delete('faults')
  clearFaults(): { faults: Fault[] } {
    this.rpc.faults.clear();
    return { faults: [] };
  }

  @Post('reset')
  @HttpCode(200)
  reset(): { reset: true } {
    this.exchange.reset();
    this.rpc.faults.clear();
    this.rpc.stats.reset();
    return { reset: true };
  }

  @Get('stats')
  stats(): { stats: SandboxStats } {
    return { stats: this.rpc.stats.snapshot() };
  }
}
