import { describe, expect, it } from 'vitest';
import { badgeMarkdown, githubActionsSnippet, gitlabCiSnippet } from './ci-snippets.ts';

describe('CI snippets', () => {
  it('fill in the server origin and refer to the key as a CI secret, never inline', () => {
    const github = githubActionsSnippet('https://qa.example.com/setup?x=1');
    expect(github).toContain('FULLSTOP_SERVER: "https://qa.example.com"');
    expect(github).toContain('FULLSTOP_API_KEY: ${{ secrets.FULLSTOP_API_KEY }}');
    expect(github).toContain('curl -fsS "$FULLSTOP_SERVER/ci/fullstop-ci.mjs" -o fullstop-ci.mjs');
    expect(github).toContain('node fullstop-ci.mjs --junit fullstop-results.xml');
    expect(github).toMatch(/if: always\(\)\n\s+uses: actions\/upload-artifact@v4/);
    expect(github).not.toMatch(/fsk_/);

    const gitlab = gitlabCiSnippet('http://localhost:3000');
    expect(gitlab).toContain('FULLSTOP_SERVER: "http://localhost:3000"');
    expect(gitlab).toMatch(/reports:\n\s+junit: fullstop-results.xml/);
    expect(gitlab).not.toMatch(/fsk_/);
  });

  it('refuse anything but an http(s) origin', () => {
    expect(() => githubActionsSnippet('javascript:alert(1)')).toThrow(/not an http\(s\) origin/);
    expect(gitlabCiSnippet('https://qa.example.com:8443/')).toContain('"https://qa.example.com:8443"');
  });

  it('build the badge Markdown', () => {
    expect(badgeMarkdown('https://qa.example.com/badge/abc.svg', 'https://qa.example.com')).toBe(
      '[![Fullstop QA](https://qa.example.com/badge/abc.svg)](https://qa.example.com)',
    );
  });
});
