import { Module } from '@nestjs/common';
import { TestModeModule } from '#app/test-mode';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { TestHelpersController } from './test-helpers.controller.js';

/** `/v1/test_helpers/*`. */
@Module({
  imports: [TestModeModule, PartnerApiModule],
  controllers: [TestHelpersController],
})
export class TestHelpersModule {}
