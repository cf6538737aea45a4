import { Logger } from '@nestjs/common';
// Loading Nest first also lets CommonJS Nest add-ons (@nestjs/throttler) `require()` the ESM-only
// Nest 12: Node 24 allows that only once Nest's own modules have finished loading; Jest's module
// registry otherwise reaches them mid-cycle ("Cannot require() ES Module … in a cycle").
import '@nestjs/core';

// Each test file has its own module registry, so the global setup's silencing does not reach
// it: code that logs through Nest's default logger would print to the test output.
if ((process.env.LOG_LEVEL ?? 'silent') === 'silent') {
  Logger.overrideLogger(false);
}
