import { runAdminCommand } from './cli.run.js';

const exitCode = await runAdminCommand(process.argv.slice(2), process.env, process);
// A connection left open by a failed start must not keep a one-shot command hanging.
process.exit(exitCode);
