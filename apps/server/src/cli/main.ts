import { Command } from 'commander';

const program = new Command('fullstop').description('Fullstop QA operator CLI');
await program.parseAsync(process.argv);
