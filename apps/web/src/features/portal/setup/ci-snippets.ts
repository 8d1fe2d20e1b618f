import { CI_SCRIPT_PATH } from '@fullstop/contracts';

/** The CI secret (GitHub) or masked variable (GitLab) holding the client's API key: never the key itself. */
export const CI_KEY_SECRET = 'FULLSTOP_API_KEY';

/** A server origin as it may appear inside a YAML double-quoted scalar: only a plain http(s) origin. */
function safeOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) origin: ${origin}`);
  return url.origin;
}

/** GitHub Actions: a job that runs the tests after a deploy, fails on red, and uploads the JUnit report. */
export function githubActionsSnippet(origin: string): string {
  const server = safeOrigin(origin);
  return `# .github/workflows/fullstop.yml
name: Fullstop QA
on:
  workflow_dispatch:
  push:
    branches: [main]
jobs:
  fullstop:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      - name: Run the Fullstop QA tests
        env:
          FULLSTOP_SERVER: "${server}"
          FULLSTOP_API_KEY: \${{ secrets.${CI_KEY_SECRET} }}
        run: |
          curl -fsS "$FULLSTOP_SERVER${CI_SCRIPT_PATH}" -o fullstop-ci.mjs
          node fullstop-ci.mjs --junit fullstop-results.xml
      - name: Keep the JUnit report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: fullstop-results
          path: fullstop-results.xml
`;
}

/** GitLab CI: the same job; the JUnit file becomes the pipeline's test report. */
export function gitlabCiSnippet(origin: string): string {
  const server = safeOrigin(origin);
  return `# .gitlab-ci.yml (add ${CI_KEY_SECRET} under Settings → CI/CD → Variables, masked)
fullstop:
  stage: test
  image: node:22-alpine
  variables:
    FULLSTOP_SERVER: "${server}"
  script:
    - wget -qO fullstop-ci.mjs "$FULLSTOP_SERVER${CI_SCRIPT_PATH}"
    - node fullstop-ci.mjs --junit fullstop-results.xml
  artifacts:
    when: always
    reports:
      junit: fullstop-results.xml
`;
}

/** The badge in a README: Markdown, as the server built it. */
export function badgeMarkdown(badgeUrl: string, origin: string): string {
  return `[![Fullstop QA](${badgeUrl})](${safeOrigin(origin)})`;
}
