import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OrganizationsService, toAuditEntryView } from '#app/partners';
import { AdminApi } from './admin-api.decorator.js';
import { AuditLogResponse } from './dto/audit-entry.response.js';
import { AuditQueryDto } from './dto/audit-query.dto.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/audit')
export class AdminAuditController {
  constructor(private readonly organizations: OrganizationsService) {}

  /** Newest first. */
  @Get()
  @ApiOkResponse({ type: AuditLogResponse })
  async list(@Query() query: AuditQueryDto): Promise<AuditLogResponse> {
    const entries = await this.organizations.latestAudit(query.limit);
    return { entries: entries.map(toAuditEntryView) };
  }
}
