import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LegacyImportService } from '#app/swaps';
import { ADMIN_ACTOR } from '../platform/auth/admin-actor.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { ImportSwapsDto, ImportSwapsResponse } from './dto/import-swaps.dto.js';
import { ApiErrors, JSON_BODY_ERRORS } from '../platform/contract/api-errors.decorator.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/swaps')
export class AdminLegacySwapsController {
  constructor(private readonly legacy: LegacyImportService) {}

  @Post('import')
  @ApiOperation({
    summary: 'Import legacy swaps',
    description:
      'Imports swaps of the previous system, so their partners see them; ids that exist are skipped, never overwritten.',
  })
  @ApiErrors(...JSON_BODY_ERRORS)
  @HttpCode(201)
  @ApiCreatedResponse({ type: ImportSwapsResponse, description: 'How many swaps were imported.' })
  async import(@Body() dto: ImportSwapsDto): Promise<ImportSwapsResponse> {
    return { imported: await this.legacy.import(dto.swaps, ADMIN_ACTOR) };
  }
}
