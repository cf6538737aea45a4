// CommonJS Nest add-ons (@nestjs/throttler) `require()` the ESM-only Nest 12. Node 24 allows that
// only once Nest's own modules have finished loading; Jest's module registry otherwise reaches
// them mid-cycle ("Cannot require() ES Module … in a cycle"). Loading them first avoids it.
import '@nestjs/common';
import '@nestjs/core';
