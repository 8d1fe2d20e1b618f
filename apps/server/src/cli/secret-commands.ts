import type { Command } from 'commander';
import type { SecretListResponse } from '@fullstop/contracts';
import { clientResourceCommands } from './client-resource.ts';
import { clientFor, OperatorApiError } from './operator-client.ts';

/** The whole of standard input, without its last line break: a secret never goes on the command line (ps, history). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Type the value, then Enter and Ctrl-D:\n');
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text.replace(/\r?\n$/, '');
}

/** `fullstop secrets`: the secrets a client's suite logs in with (decision 0060). Values go in, never come out. */
export function registerSecretCommands(program: Command): void {
  const { group: secrets, path, list, remove } = clientResourceCommands(program, 'secrets', 'the secrets a client’s suite logs in with (values are never shown)', 'secrets');

  list<SecretListResponse>('list the client’s secrets: names and when each was set, and those its suite needs but lacks', (res) => {
    if (!res.secrets.length) console.log('No secrets set.');
    for (const s of res.secrets) console.log(`${s.name}  set ${s.setAt}`);
    if (res.missing.length) console.log(`missing (the suite's login needs them): ${res.missing.join(', ')}`);
  });

  secrets
    .command('set')
    .description('set a secret (replacing one of the same name); the value is read from standard input')
    .requiredOption('--client <id>', 'client id')
    .argument('<name>', 'the name the suite uses in {{secret:name}}')
    .action(async (name: string, opts: { client: string }, cmd: Command) => {
      const value = await readStdin();
      if (!value) throw new OperatorApiError('no value on standard input: e.g. `printf %s "$PASSWORD" | fullstop secrets set password --client <id>`', 0, null);
      const res = await clientFor(cmd).request<{ message: string }>('PUT', path(opts.client, name), { value });
      console.log(res.message);
    });

  remove('delete a secret', '<name>', 'the secret’s name');
}
