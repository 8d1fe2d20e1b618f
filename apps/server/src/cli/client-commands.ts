import type { Command } from 'commander';
import type { ClientList, NewClientResponse, NewUserResponse, RevealApiKeyResponse } from '@fullstop/contracts';
import { clientFor } from './operator-client.ts';

function print(json: boolean, value: unknown, text: string): void {
  console.log(json ? JSON.stringify(value, null, 2) : text);
}

export function registerClientCommands(program: Command): void {
  const client = program.command('client').description('manage clients');

  client
    .command('create')
    .description('create a client with its first user; prints the client id, user id and the API key masked')
    .requiredOption('--name <name>', 'client name')
    .requiredOption('--website <url>', 'the website to test')
    .requiredOption('--email <email>', "the first user's email")
    .requiredOption('--password <password>', "the first user's password (10 characters or more)")
    .option('--username <name>', "the first user's display name")
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; website: string; email: string; password: string; username?: string; json?: boolean }, command: Command) => {
      const { json, ...body } = opts;
      const created = await clientFor(command).post<NewClientResponse>('/operator/clients', body);
      print(
        Boolean(json),
        created,
        `client id: ${created.clientId}\nuser id:   ${created.userId}\nAPI key:   ${created.apiKeyMasked} (the client sees it in the portal; \`fullstop client reveal-key ${created.clientId}\` shows it whole, audited)`,
      );
    });

  client
    .command('list')
    .description('list every client')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { clients } = await clientFor(command).get<ClientList>('/operator/clients');
      const lines = clients.map((c) => `${c.id}  ${c.clientName}  ${c.website}  ${c.apiKeyMasked}  (${c.users} user${c.users === 1 ? '' : 's'})`);
      print(Boolean(opts.json), clients, lines.length > 0 ? lines.join('\n') : 'No clients yet.');
    });

  client
    .command('reveal-key')
    .description("print a client's whole API key; the server writes who revealed it, and when, to its audit log")
    .argument('<clientId>', 'the client')
    .option('--json', 'print JSON')
    .action(async (clientId: string, opts: { json?: boolean }, command: Command) => {
      const revealed = await clientFor(command).post<RevealApiKeyResponse>(`/operator/clients/${encodeURIComponent(clientId)}/reveal-api-key`);
      print(Boolean(opts.json), revealed, revealed.apiKey);
    });

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description("create a user for a client (or, with --operator, an operator)")
    .option('--client <id>', 'the client the user belongs to')
    .requiredOption('--email <email>', 'email')
    .requiredOption('--password <password>', 'password (10 characters or more)')
    .option('--username <name>', 'display name')
    .option('--operator', 'make an operator instead of a client user')
    .option('--team-role <role>', "the client user's team role: owner, member (the default) or viewer")
    .option('--json', 'print JSON')
    .action(async (opts: { client?: string; email: string; password: string; username?: string; operator?: boolean; teamRole?: string; json?: boolean }, command: Command) => {
      const body = {
        clientId: opts.client,
        email: opts.email,
        password: opts.password,
        username: opts.username,
        role: opts.operator ? 'operator' : 'client',
        teamRole: opts.teamRole,
      };
      const created = await clientFor(command).post<NewUserResponse>('/operator/users', body);
      print(Boolean(opts.json), created, `user id: ${created.userId}`);
    });
}
