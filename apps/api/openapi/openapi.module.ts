import { Module } from '@nestjs/common';
import { OpenApiController, OpenApiDocumentHolder } from './openapi.controller.js';

@Module({ controllers: [OpenApiController], providers: [OpenApiDocumentHolder] })
export class OpenApiModule {}
