import { Module } from '@nestjs/common';
import { AdminApiModule } from '../auth/admin-api.module.js';
import {
  AdminOpenApiController,
  OpenApiController,
  OpenApiDocumentHolder,
} from './openapi.controller.js';

@Module({
  imports: [AdminApiModule],
  controllers: [OpenApiController, AdminOpenApiController],
  providers: [OpenApiDocumentHolder],
})
export class OpenApiModule {}
