#!/usr/bin/env node
// Fullstop QA CI runner: one file, no dependencies, Node 18 or later. Your Fullstop server serves it at
// /ci/fullstop-ci.mjs. It runs your tests with your API key, waits for the end, writes a JUnit report, and exits
// 0 when every test passed, 1 when a test failed, 2 when there is no verdict (a test could not run, the wait
// timed out, the key was refused, the server was unreachable).
//
//   FULLSTOP_SERVER=https://qa.example.com FULLSTOP_API_KEY=fsk_... node fullstop-ci.mjs [--test NAME] [--junit FILE] [--timeout SECONDS] [--after-deploy]
//
// --after-deploy: the run of a deploy. Once it ends, your site is crawled again and the change to your suite it
// proposes goes to our QA team; the runner prints which failures were healed, which need a person, and what is proposed.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const PASSED = 0;
const FAILED = 1;
const COULD_NOT_RUN = 2;
const TERMINAL = new Set(['passed', 'failed', 'error', 'cancelled']);

class CouldNotRun extends Error {}

function isXmlChar(code) {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}
function xml(s) {
  let clean = '';
  for (const ch of String(s)) if (isXmlChar(ch.codePointAt(0))) clean += ch;
  return clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
function verdict(status) {
  return status === 'passed' || status === 'failed' || status === 'error' ? status : 'skipped';
}
const secs = (ms) => ((ms ?? 0) / 1000).toFixed(3);

/** One testsuite per group, one testcase per test; failure, error (could not run) or skipped (did not run). */
function junit(run) {
  const sorted = [...run.tests].sort((a, b) => a.group.localeCompare(b.group, 'en') || a.testName.localeCompare(b.testName, 'en'));
  const groups = new Map();
  for (const t of sorted) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  const n = (tests, v) => tests.filter((t) => verdict(t.status) === v).length;
  const attrs = (tests) =>
    `tests="${tests.length}" failures="${n(tests, 'failed')}" errors="${n(tests, 'error')}" skipped="${n(tests, 'skipped')}" time="${secs(tests.reduce((s, t) => s + (t.durationMs ?? 0), 0))}"`;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="Fullstop QA run ${xml(run.runId)}" ${attrs(run.tests)}>`];
  for (const [group, tests] of groups) {
    out.push(`  <testsuite name="${xml(group)}" ${attrs(tests)}>`);
    for (const t of tests) {
      const open = `    <testcase classname="${xml(group)}" name="${xml(t.testName)}" time="${secs(t.durationMs)}">`;
      const v = verdict(t.status);
      const text = t.error ?? (t.totals ? `${t.totals.failedTests} of ${t.totals.totalTests} checks failed` : v);
      const first = String(text).split(/\r?\n/)[0];
      if (v === 'passed') out.push(open.replace(/>$/, '/>'));
      else {
        out.push(open);
        if (v === 'failed') out.push(`      <failure type="failed" message="${xml(first)}">${xml(text)}</failure>`);
        else if (v === 'error') out.push(`      <error type="could-not-run" message="${xml(first)}">${xml(t.error ?? '')}</error>`);
        else out.push(`      <skipped message="${xml(t.status === 'cancelled' ? 'cancelled' : `not run: ${t.status} when the wait ended`)}"/>`);
        out.push('    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: process.env.FULLSTOP_SERVER },
      'api-key': { type: 'string', default: process.env.FULLSTOP_API_KEY },
      test: { type: 'string' },
      junit: { type: 'string' },
      timeout: { type: 'string', default: '1800' },
      wait: { type: 'boolean', default: true },
      'after-deploy': { type: 'boolean', default: false },
    },
  });
  const junitFile = values.junit;
  try {
    const server = values.server;
    const apiKey = values['api-key'];
    const timeout = Number(values.timeout);
    if (!server) throw new CouldNotRun('say which server: FULLSTOP_SERVER or --server https://…');
    if (!apiKey) throw new CouldNotRun('no API key: set FULLSTOP_API_KEY (a CI secret) or pass --api-key');
    if (!Number.isInteger(timeout) || timeout < 1 || timeout > 3600) throw new CouldNotRun('--timeout must be 1-3600 seconds');
    const headers = { 'x-api-key': apiKey, 'x-fullstop-trigger': 'ci' };
    const call = async (path) => {
      let res;
      try {
        res = await fetch(new URL(path, server), { headers });
      } catch (err) {
        throw new CouldNotRun(`Cannot reach the Fullstop server at ${server} (${String(err.cause ?? err.message)}).`);
      }
      const body = await res.json().catch(() => ({}));
      if (res.status === 401 || res.status === 403) {
        throw new CouldNotRun(`The server refused the API key (${res.status}): ${body.message ?? res.statusText}. Check FULLSTOP_API_KEY: the portal's Setup page shows the current key.`);
      }
      if (!res.ok) throw new CouldNotRun(`${path.split('?')[0]} failed (${res.status}): ${body.message ?? res.statusText}`);
      return body;
    };
    const queued = await call(`/test/run/${values.test ? encodeURIComponent(values.test) : 'all'}${values['after-deploy'] ? '?afterDeploy=true' : ''}`);
    const deadline = Date.now() + timeout * 1000;
    const pollMs = Number(process.env.FULLSTOP_POLL_MS) > 0 ? Number(process.env.FULLSTOP_POLL_MS) : 2000;
    let run;
    for (;;) {
      run = await call(`/test/runs/${encodeURIComponent(queued.runId)}`);
      if (TERMINAL.has(run.status) || Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
    }
    console.log(run.message);
    for (const t of run.tests) console.log(`  ${t.status.padEnd(9)} ${t.testName}${t.error ? ` (${t.error.split('\n')[0]})` : ''}`);
    if (values['after-deploy'] && TERMINAL.has(run.status)) {
      const after = await call(`/test/runs/${encodeURIComponent(queued.runId)}/after-deploy`);
      console.log(['After the deploy:', ...after.words.map((line) => `  ${line}`)].join('\n'));
    }
    const verdicts = run.tests.map((t) => verdict(t.status));
    const code = verdicts.includes('failed') ? FAILED : run.status === 'passed' && verdicts.every((v) => v === 'passed') ? PASSED : COULD_NOT_RUN;
    if (junitFile) {
      writeFileSync(junitFile, junit(run));
      console.log(`JUnit report: ${junitFile}`);
    }
    const n = (v) => verdicts.filter((x) => x === v).length;
    const unfinished = TERMINAL.has(run.status) ? '' : ', the run was still going when the wait ended';
    console.log(`Fullstop QA run ${run.runId}: ${n('passed')} passed, ${n('failed')} failed, ${n('error')} could not run, ${n('skipped')} not run${unfinished} (exit ${code})`);
    process.exitCode = code;
  } catch (err) {
    if (!(err instanceof CouldNotRun)) throw err;
    console.error(`fullstop: ${err.message}`);
    if (junitFile) {
      try {
        writeFileSync(junitFile, junit({ runId: 'none', tests: [{ group: 'Fullstop QA', testName: '(run)', status: 'error', error: err.message }] }));
      } catch {
        // the message above says what went wrong
      }
    }
    console.log(`Fullstop QA: could not run (exit ${COULD_NOT_RUN})`);
    process.exitCode = COULD_NOT_RUN;
  }
}

await main().catch((err) => {
  console.error(err);
  process.exitCode = COULD_NOT_RUN;
});
