import { z } from 'zod';
import { deliveryState } from './deliveries.ts';
import { text } from './text.ts';

// Bug export to the client's own tracker (issue 9): a signed webhook, GitHub Issues or Jira Cloud. Accepted bugs
// appear there; status changes flow to it and, where its API allows, back. A secret goes in and never comes out.

export const integrationKind = z.enum(['webhook', 'github', 'jira'], { error: 'kind must be one of webhook, github, jira' });
export type IntegrationKind = z.infer<typeof integrationKind>;
export const INTEGRATION_KINDS = integrationKind.options;

export const integrationKindParams = z.object({ kind: integrationKind });

const field = (name: string, max: number) => text(name).trim().min(1, { error: `${name} is required` }).max(max, { error: `${name} must be at most ${max} characters` });
const httpUrl = (name: string) =>
  field(name, 2000).refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
      } catch {
        return false;
      }
    },
    { error: `${name} must be an http(s) URL without credentials` },
  );
const token = (name: string) => field(name, 4096);

/** PUT /integrations/webhook: where to POST. The signing secret is ours, shown once; `rotateSecret` makes a new one. */
export const webhookConnectBody = z.object({ url: httpUrl('url'), rotateSecret: z.boolean().optional() });
/** PUT /integrations/github: the repository issues are created in, and a token that may write its issues. */
export const githubConnectBody = z.object({
  owner: field('owner', 100).regex(/^[A-Za-z0-9_.-]+$/, { error: 'owner must be a GitHub user or organisation name' }),
  repo: field('repo', 100).regex(/^[A-Za-z0-9_.-]+$/, { error: 'repo must be a GitHub repository name' }),
  /** Optional when replacing: the stored token is kept. */
  token: token('token').optional(),
});
/** PUT /integrations/jira: the Jira Cloud site, the project and the account whose API token is given. */
export const jiraConnectBody = z.object({
  siteUrl: httpUrl('siteUrl'),
  projectKey: field('projectKey', 50).regex(/^[A-Z][A-Z0-9_]*$/, { error: 'projectKey must be a Jira project key such as ACME' }),
  email: z.email({ error: 'email must be the Jira account’s email address' }),
  /** Optional when replacing: the stored token is kept. */
  token: token('token').optional(),
});
export const connectBodies = { webhook: webhookConnectBody, github: githubConnectBody, jira: jiraConnectBody } as const;
/** The body of PUT /integrations/:kind: the fields of that kind (checked against it by the server). */
export const connectIntegrationBody = z.record(z.string(), z.unknown());

/** A connection as shown: its settings and a masked hint of its secret, never the secret. */
export const integration = z.object({
  kind: integrationKind,
  /** webhook: url; github: owner, repo; jira: siteUrl, projectKey, email. */
  config: z.record(z.string(), z.string()),
  /** The secret's last characters, e.g. "••••3f9a". */
  secretHint: z.string(),
  connectedAt: z.string(),
  updatedAt: z.string(),
});
export type Integration = z.infer<typeof integration>;

export const integrationList = z.object({ integrations: z.array(integration) });
export type IntegrationList = z.infer<typeof integrationList>;

/** PUT answer; `secret` is the webhook's new signing secret, given this once. */
export const connectIntegrationResponse = z.object({ integration, secret: z.string().optional() });
export type ConnectIntegrationResponse = z.infer<typeof connectIntegrationResponse>;

export const integrationDelivery = z.object({
  id: z.string(),
  kind: integrationKind,
  bugId: z.string().nullable(),
  bugNumber: z.number().int().nullable(),
  /** test, bug.created-issue, bug.status-changed, bug.commented … */
  event: z.string(),
  ...deliveryState.shape,
});
export type IntegrationDelivery = z.infer<typeof integrationDelivery>;
export const integrationDeliveryList = z.object({ deliveries: z.array(integrationDelivery) });
export type IntegrationDeliveryList = z.infer<typeof integrationDeliveryList>;

/** POST /integrations/sync: issues read, bugs moved. */
export const integrationSyncResponse = z.object({ checked: z.number().int(), updated: z.number().int(), errors: z.array(z.string()) });
export type IntegrationSyncResponse = z.infer<typeof integrationSyncResponse>;

/** GET /operator/clients/:id/integrations. */
export const operatorIntegrationList = integrationList.merge(integrationDeliveryList);
export type OperatorIntegrationList = z.infer<typeof operatorIntegrationList>;

/** The webhook's JSON body. */
export interface WebhookPayload {
  event: string;
  bug: { id: string; number: number; title: string; severity: string; status: string; url: string };
  at: string;
}

/** The API paths (the server registers the same strings). */
export const integrationPaths = {
  list: '/integrations',
  deliveries: '/integrations/deliveries',
  sync: '/integrations/sync',
  kind: (kind: IntegrationKind) => `/integrations/${kind}`,
  test: (kind: IntegrationKind) => `/integrations/${kind}/test`,
} as const;
