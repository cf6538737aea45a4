import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DashboardAccountsService } from '#app/accounts';
import { loadCliConfig } from '#app/config';
import { createRootLogger, logDestination, PinoNestLogger, resolveLogFormat } from '#app/logging';
import { OrganizationsService } from '#app/partners';
import { runMigrations } from '#app/persistence';
import { ProviderControlService } from '#app/provider-control';
import { SwapQueryService } from '#app/swaps';
import { WidgetKeysService } from '#app/widgets';
import { parseCommand, USAGE } from './cli-args.js';
import { runCommand } from './cli-commands.js';
import { describeCliError } from './cli-error.js';
import { CliModule } from './cli.module.js';

async function main(argv: string[]): Promise<void> {
  const command = await parseCommand(argv);
  if (command.name === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadCliConfig(process.env);
  // stdout carries only the JSON result; logs go to stderr.
  const logger = new PinoNestLogger(
    createRootLogger(
      config.logLevel,
      logDestination(resolveLogFormat(process.env, 'json'), process.stderr),
    ),
  );
  Logger.overrideLogger(logger);
  await runMigrations(config.database.url);
  const context = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
    logger,
    abortOnError: false,
  });
  try {
    const result = await runCommand(command, {
      organizations: context.get(OrganizationsService),
      dashboard: { accounts: context.get(DashboardAccountsService), publicUrl: config.publicUrl },
      widgetKeys: context.get(WidgetKeysService),
      providers: context.get(ProviderControlService),
      swaps: context.get(SwapQueryService),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await context.close();
  }
}

let exitCode = 0;
try {
  await main(process.argv.slice(2));
} catch (error: unknown) {
  process.stderr.write(`${describeCliError(error)}\n`);
  exitCode = 1;
}
// A connection left open by a failed start must not keep a one-shot command hanging.
process.exit(exitCode);
