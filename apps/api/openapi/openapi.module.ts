import { Module } from '@nestjs/common';
import {
  AdminOpenApiController,
  OpenApiController,
  OpenApiDocumentHolder,
} from './openapi.controller.js';

@Module({
  controllers: [OpenApiController, AdminOpenApiController],
  providers: [OpenApiDocumentHolder],
})
export class OpenApiModule {}
