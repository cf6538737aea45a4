import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { OrganizationsService, toAuditEntryView } from '#app/partners';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { AuditLogResponse } from './dto/audit-entry.response.js';
import { AuditQueryDto } from './dto/audit-query.dto.js';
import { ApiErrors } from '../platform/contract/api-errors.decorator.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/audit')
export class AdminAuditController {
  constructor(private readonly organizations: OrganizationsService) {}

  /** Newest first. */
  @Get()
  @ApiOperation({
    summary: 'Audit log',
    description: 'The latest operator and partner-affecting actions, newest first.',
  })
  @ApiErrors(ErrorCode.InvalidRequest)
  @ApiOkResponse({ type: AuditLogResponse, description: 'The audit entries, newest first.' })
  async list(@Query() query: AuditQueryDto): Promise<AuditLogResponse> {
    const entries = await this.organizations.latestAudit(query.limit);
    return { entries: entries.map(toAuditEntryView) };
  }
}
