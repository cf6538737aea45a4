import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { LegacyImportService } from '#app/swaps';
import { ADMIN_ACTOR } from './admin-actor.js';
import { AdminApi } from './admin-api.decorator.js';
import { ImportSwapsDto, ImportSwapsResponse } from './dto/import-swaps.dto.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/swaps')
export class AdminLegacySwapsController {
  constructor(private readonly legacy: LegacyImportService) {}

  @Post('import')
  @HttpCode(201)
  @ApiCreatedResponse({ type: ImportSwapsResponse })
  async import(@Body() dto: ImportSwapsDto): Promise<ImportSwapsResponse> {
    return { imported: await this.legacy.import(dto.swaps, ADMIN_ACTOR) };
  }
}
