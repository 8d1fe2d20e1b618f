import type { Command } from 'commander';
import { clientFor } from './operator-client.ts';

/**
 * A command group over one kind of a client's things in the operator API (`/operator/clients/{client}/{resource}`):
 * the group, the path of the list or of one item, and its `list` and `delete` commands.
 */
export function clientResourceCommands(program: Command, name: string, description: string, resource: string) {
  const group = program.command(name).description(description);
  const path = (client: string, item?: string) =>
    `/operator/clients/${encodeURIComponent(client)}/${resource}${item === undefined ? '' : `/${encodeURIComponent(item)}`}`;

  /** `list`: prints the answer as JSON with --json, else as `print` writes it. */
  const list = <T>(listDescription: string, print: (res: T) => void) =>
    group
      .command('list')
      .description(listDescription)
      .requiredOption('--client <id>', 'client id')
      .option('--json', 'print JSON')
      .action(async (opts: { client: string; json?: boolean }, cmd: Command) => {
        const res = await clientFor(cmd).get<T>(path(opts.client));
        if (opts.json) return console.log(JSON.stringify(res, null, 2));
        print(res);
      });

  /** `delete <item> --client <id>`: prints the server's answer. */
  const remove = (deleteDescription: string, item: string, itemDescription: string) =>
    group
      .command('delete')
      .description(deleteDescription)
      .requiredOption('--client <id>', 'client id')
      .argument(item, itemDescription)
      .action(async (id: string, opts: { client: string }, cmd: Command) => {
        const res = await clientFor(cmd).request<{ message: string }>('DELETE', path(opts.client, id));
        console.log(res.message);
      });

  return { group, path, list, remove };
}
