// Healed locators as proposed suite patches (issue 42, docs/healing.md, decision 0101 "The server's half"): a run whose
// browser tests healed a locator makes one proposed suite version with the new locators written into the specs; an
// operator accepts it (it becomes current) or rejects it with a note. A client reads each healed case of a run.
import { z } from 'zod';
import { caseHeal } from './healing.ts';
import { idString } from './common.ts';

export const HEALING_PROPOSAL_STATUSES = ['proposed', 'accepted', 'rejected'] as const;
export const healingProposalStatus = z.enum(HEALING_PROPOSAL_STATUSES);
export type HealingProposalStatus = z.infer<typeof healingProposalStatus>;

/**
 * One heal of a proposal, as it is stored: the case's heal, the test and case it happened in, and whether the
 * proposed version carries it (`patched`), or why not (`why`: "the old locator is not on line 7 of helpers.ts").
 */
export const proposedHeal = caseHeal.extend({
  /** The run test, its attempt (the screenshot is in that attempt's folder), its test and the case that healed. */
  runTestId: z.string().min(1).max(64),
  attempt: z.number().int().min(1),
  testName: z.string().min(1).max(300),
  caseName: z.string().min(1).max(600),
  patched: z.boolean(),
  why: z.string().max(600).nullable(),
  /** What a Reject keeps from being proposed again: the call site, both locators and the page's state (hashed). */
  key: z.string().min(1).max(128),
});
export type ProposedHeal = z.infer<typeof proposedHeal>;

/** A heal as the console shows it: its screenshot as a short-lived evidence link (null when it has none). */
export const healingProposalHeal = proposedHeal.omit({ screenshot: true }).extend({ screenshotUrl: z.string().nullable() });
export type HealingProposalHeal = z.infer<typeof healingProposalHeal>;

export const healingProposal = z.object({
  id: z.string(),
  clientId: z.string(),
  runId: z.string(),
  /** The browser test whose result healed first (a run's other healed tests are in `heals` too). */
  runTestId: z.string(),
  /** The version the run ran, and the proposed one (null: no heal could be written into a spec). */
  fromVersion: z.number().int(),
  proposedVersion: z.number().int().nullable(),
  status: healingProposalStatus,
  heals: z.array(healingProposalHeal),
  createdAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
});
export type HealingProposal = z.infer<typeof healingProposal>;

export const healingProposalsResponse = z.object({ proposals: z.array(healingProposal) });
export type HealingProposalsResponse = z.infer<typeof healingProposalsResponse>;

export const healingProposalParams = z.object({ id: idString, proposalId: idString });
export const healingProposalsQuery = z.object({ status: healingProposalStatus.optional() });

/** POST …/reject: a note is required (why the heal is wrong, for whoever fixes the spec). */
export const healingRejectBody = z
  .object({
    note: z
      .string({ error: 'note is required' })
      .trim()
      .min(1, { error: 'Say why the heal is rejected' })
      .max(2000, { error: 'note must be at most 2000 characters' }),
  })
  .strict();
export type HealingRejectBody = z.infer<typeof healingRejectBody>;

export const healingDecisionResponse = z.object({ message: z.string(), proposal: healingProposal });
export type HealingDecisionResponse = z.infer<typeof healingDecisionResponse>;

/** GET /test/runs/{runId}/heals: each healed case of the run, for the client's run detail. */
export const runHealsResponse = z.object({
  tests: z.array(
    z.object({
      runTestId: z.string(),
      testName: z.string(),
      cases: z.array(z.object({ name: z.string(), cell: z.string().optional(), healed: z.array(caseHeal) })),
    }),
  ),
});
export type RunHealsResponse = z.infer<typeof runHealsResponse>;
export const runHealsParams = z.object({ runId: idString });

/** "Healed: the button's label changed from "Send" to "Send message" (helpers.ts, line 7)": one heal in one line. */
export function healedWords(heal: Pick<z.infer<typeof caseHeal>, 'change' | 'site'>): string {
  const change = heal.change ? `${heal.change[0]!.toUpperCase()}${heal.change.slice(1)}` : 'The locator was healed';
  return `Healed: ${change} (${heal.site.file}, line ${heal.site.line})`;
}
