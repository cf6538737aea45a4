import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import type { SandboxStats } from './call.stats.js';
import { ControlService, type Spread } from './control.service.js';
import { DepositDto } from './dto/deposit.dto.js';
import { FaultDto } from './dto/fault.dto.js';
import { ForceStatusDto } from './dto/force-status.dto.js';
import { SpreadDto } from './dto/spread.dto.js';
import type { Fault } from './fault.book.js';
import type { SandboxTransactionView } from './wire.mapper.js';

/**
 * Test and demo controls (docs/decisions.md, "The provider's wire protocol", "The sandbox serves
 * both"); errors use the service's envelope.
 */
@Controller('sandbox')
export class ControlController {
  constructor(private readonly control: ControlService) {}

  @Get('transactions/:id')
  get(@Param('id') id: string): { transaction: SandboxTransactionView } {
    return { transaction: this.control.view(id) };
  }

  @Post('transactions/:id/deposit')
  @HttpCode(200)
  deposit(
    @Param('id') id: string,
    @Body() body: DepositDto,
  ): { transaction: SandboxTransactionView } {
    return { transaction: this.control.deposit(id, body.amount, body.late ?? false) };
  }

  @Post('transactions/:id/status')
  @HttpCode(200)
  forceStatus(
    @Param('id') id: string,
    @Body() body: ForceStatusDto,
  ): { transaction: SandboxTransactionView } {
    return { transaction: this.control.forceStatus(id, body.status) };
  }

  @Post('faults')
  @HttpCode(201)
  addFault(@Body() body: FaultDto): { faults: Fault[] } {
    return {
      faults: this.control.addFault({
        provider: body.provider ?? 'changelly',
        method: body.method,
        mode: body.mode,
        remaining: body.count ?? 1,
        ...(body.code === undefined ? {} : { code: body.code }),
        ...(body.message === undefined ? {} : { message: body.message }),
        ...(body.delayMs === undefined ? {} : { delayMs: body.delayMs }),
      }),
    };
  }

  @Get('faults')
  faults(): { faults: Fault[] } {
    return { faults: this.control.faults() };
  }

  @Delete('faults')
  clearFaults(): { faults: Fault[] } {
    this.control.clearFaults();
    return { faults: [] };
  }

  @Post('spreads')
  @HttpCode(200)
  setSpread(@Body() body: SpreadDto): { spread: Spread } {
    return { spread: this.control.setSpread(body) };
  }

  /** Each provider's spread on one pair and direction. */
  @Get('spreads')
  spreads(
    @Query('from') from: string,
    @Query('to') to: string,
  ): { spreads: Record<ProviderName, number> } {
    return { spreads: this.control.spreads(String(from), String(to)) };
  }

  @Delete('spreads')
  restoreSpreads(): { restored: true } {
    this.control.restoreSpreads();
    return { restored: true };
  }

  @Post('reset')
  @HttpCode(200)
  reset(): { reset: true } {
    this.control.reset();
    return { reset: true };
  }

  @Get('stats')
  stats(): { stats: SandboxStats } {
    return { stats: this.control.stats() };
  }
}
