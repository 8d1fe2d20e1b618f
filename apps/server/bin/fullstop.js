#!/usr/bin/env node
// The operator CLI. Runs the TypeScript source through tsx so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
