import { Command, Option } from 'commander';
import { registerEngineCommands } from '../features/engine/cli.ts';
import { registerHealthCommands } from '../features/health/cli.ts';
import { registerCancelCommand } from './cancel-command.ts';
import { registerClientCommands } from './client-commands.ts';
import { registerRunCommand } from './run-command.ts';
import { registerScheduleCommands } from './schedule-commands.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerSecretCommands } from './secret-commands.ts';

/** The `fullstop` CLI: operator commands talk to the running server's operator API; `serve` and `worker` are the server's processes. */
export function createProgram(): Command {
  const program = new Command('fullstop')
    .description('Fullstop QA CLI: operator commands, and `run` for a client’s CI (talks to the running server)')
    .addOption(new Option('--server <url>', 'server address (default: http://127.0.0.1:$PORT)').env('FULLSTOP_SERVER'))
    .option('--token <token>', 'operator token (default: $OPERATOR_TOKEN, else read from $DATA_DIR/operator-token)')
    .option('--data-dir <dir>', 'data directory holding the operator token (default: $DATA_DIR or ./data)')
    .showHelpAfterError();
  registerClientCommands(program);
  registerEngineCommands(program);
  registerRunCommand(program);
  registerCancelCommand(program);
  registerHealthCommands(program);
  registerSecretCommands(program);
  registerScheduleCommands(program);
  registerServeCommand(program);
  return program;
}
