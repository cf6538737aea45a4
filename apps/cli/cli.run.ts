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

/** Where a command writes: its JSON result (stdout) and its logs and failure line (stderr). */
export interface CliStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Runs one admin command (`argv` without node and the script) configured by `env`: the result as
 * JSON on stdout, or one line on stderr. Answers the exit code (0, or 1 on any failure).
 */
export async function runAdminCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  streams: CliStreams,
): Promise<number> {
  try {
    await run(argv, env, streams);
    return 0;
  } catch (error: unknown) {
    streams.stderr.write(`${describeCliError(error)}\n`);
    return 1;
  }
}

async function run(
  argv: string[],
  env: Record<string, string | undefined>,
  { stdout, stderr }: CliStreams,
): Promise<void> {
  const command = await parseCommand(argv);
  if (command.name === 'help') {
    stdout.write(USAGE);
    return;
  }
  const config = loadCliConfig(env);
  // stdout carries only the JSON result; logs go to stderr.
  const logger = new PinoNestLogger(
    createRootLogger(config.logLevel, logDestination(resolveLogFormat(env, 'json'), stderr)),
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
    stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await context.close();
  }
}
