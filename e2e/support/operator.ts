import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';

const outputDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.output');

/**
 * The operator token of the server under test: E2E_OPERATOR_TOKEN, or the file the server wrote in its data
 * directory (playwright.config.ts names that folder after the port and the runner's pid, our parent process).
 */
export function operatorToken(): string {
  if (process.env.E2E_OPERATOR_TOKEN) return process.env.E2E_OPERATOR_TOKEN;
  const port = process.env.E2E_PORT ?? '3100';
  const own = path.join(outputDir, `data-${port}-${process.ppid}`, 'operator-token');
  if (existsSync(own)) return readFileSync(own, 'utf8').trim();
  const candidates = readdirSync(outputDir)
    .filter((name) => name.startsWith(`data-${port}-`))
    .map((name) => path.join(outputDir, name, 'operator-token'))
    .filter((file) => existsSync(file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!candidates[0]) throw new Error('No operator token: set E2E_OPERATOR_TOKEN or start the server through playwright.config.ts');
  return readFileSync(candidates[0], 'utf8').trim();
}

export interface E2eClient {
  clientId: string;
  apiKey: string;
  email: string;
  password: string;
  username: string;
}

let counter = 0;

/** A fresh client of its own, so a test that changes a key or uploads a build never disturbs another test. */
export async function createClient(
  request: APIRequestContext,
  options: { label?: string; website?: string } = {},
): Promise<E2eClient> {
  const label = options.label ?? 'portal';
  counter += 1;
  const unique = `${label}-${process.pid}-${Date.now()}-${counter}`;
  const body = {
    name: `E2E ${unique}`,
    website: options.website ?? 'https://example.test',
    email: `${unique}@e2e.test`,
    password: 'e2e-password-123',
    username: `E2E ${label}`,
  };
  const res = await request.post('/operator/clients', {
    headers: { authorization: `Bearer ${operatorToken()}` },
    data: body,
  });
  if (res.status() !== 201) throw new Error(`creating a client failed: ${res.status()} ${await res.text()}`);
  const created = (await res.json()) as { clientId: string; userId: string };
  // Operator answers show API keys masked; the whole key takes the (audited) reveal route.
  const revealed = await request.post(`/operator/clients/${created.clientId}/reveal-api-key`, {
    headers: { authorization: `Bearer ${operatorToken()}` },
  });
  if (revealed.status() !== 200) throw new Error(`revealing the API key failed: ${revealed.status()} ${await revealed.text()}`);
  const { apiKey } = (await revealed.json()) as { apiKey: string };
  return { ...created, apiKey, email: body.email, password: body.password, username: body.username };
}

/** Imports a suite (files as the operator CLI sends them) as the client's next version. */
export async function importSuite(request: APIRequestContext, clientId: string, manifest: object): Promise<void> {
  const res = await request.post(`/operator/clients/${clientId}/suite`, {
    headers: { authorization: `Bearer ${operatorToken()}` },
    data: { files: [{ path: 'suite.json', content: JSON.stringify(manifest) }] },
  });
  if (res.status() !== 201) throw new Error(`importing the suite failed: ${res.status()} ${await res.text()}`);
}
