// Autopilot's Markdown report: every section in order even when empty, errors first, text from the service inert, long lists cut, and 1,000 articles far under 1 MiB.
import { describe, expect, it } from 'vitest';
import { autopilotReport, REPORT_SECTIONS } from '../../src/autopilot/report.js';
import { headlineOf, type AutopilotSummary } from '../../src/autopilot/summary.js';

function summary(articles: number, extra: Partial<AutopilotSummary> = {}): AutopilotSummary {
  const long = 'x'.repeat(2_000);
  const draft: Omit<AutopilotSummary, 'headline'> = {
    outcome: 'changes',
    dryRun: false,
    review: true,
    articles: Array.from({ length: articles }, (_, i) => ({
      slug: `article-${i}`,
      title: `Title ${i} <script>alert(1)</script> [link](https://evil.example) ${long}`,
      kind: 'new' as const,
      words: 1_500,
      findings: [
        { severity: 'warning' as const, code: 'repeated_text', message: `warning ${long}` },
        ...Array.from({ length: 6 }, (_, j) => ({ severity: 'error' as const, code: 'writer_leftover', message: `error ${j} ${long}` })),
      ],
    })),
    waiting: Array.from({ length: articles }, (_, i) => ({ slug: `article-${i}`, title: `Title ${i} ${long}`, errors: 6 })),
    approved: [],
    goingLive: Array.from({ length: articles }, (_, i) => ({ slug: `article-${i}`, date: '2026-12-01T09:00:00.000Z' })),
    stillWriting: Array.from({ length: articles }, (_, i) => ({ slug: `pending-${i}`, articleId: `id-${i}` })),
    spending: { runArticles: articles, runWords: 1_500 * articles, runEstimatedWords: 0, perRun: 25, perMonth: 2_000, month: '2026-11', monthArticles: articles, monthWords: 1_500 * articles, onEmulator: false },
    later: Array.from({ length: articles }, (_, i) => ({ slug: `later-${i}`, kind: 'new' as const, heldBy: 'perMonth' as const })),
    notYet: 3,
    unknown: [],
    failed: [],
    ...extra,
  };
  return { ...draft, headline: headlineOf(draft) };
}

function sectionOf(markdown: string, name: string): string {
  const start = markdown.indexOf(`\n## ${name}\n`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('autopilotReport', () => {
  it('should keep a report of 1,000 articles with long titles and findings under 1 MiB, each list ending with "and N more"', () => {
    const report = autopilotReport(summary(1_000));
    expect(Buffer.byteLength(report)).toBeLessThan(1024 * 1024);
    for (const name of ['New and refreshed', 'Waiting for review', 'Going live', 'Still being written', 'Left for the next run']) expect(sectionOf(report, name)).toContain('- and 900 more');
  });

  it('should give every section, in order, even when empty', () => {
    const empty = summary(0, { outcome: 'nothing', notYet: 0, review: false });
    const report = autopilotReport(empty);
    expect(report.split('\n')[0]).toBe('# Articles: nothing to do');
    expect(report.split('\n').filter((line) => line.startsWith('## ')).map((line) => line.slice(3))).toEqual([...REPORT_SECTIONS]);
    for (const name of ['New and refreshed', 'Going live', 'Still being written']) expect(sectionOf(report, name).trim().endsWith('none')).toBe(true);
  });

  it('should list errors first and keep text from the service inert: no tag, no link, one line', () => {
    const report = autopilotReport(summary(1));
    const lines = sectionOf(report, 'New and refreshed').split('\n').filter((line) => line.startsWith('  - '));
    expect(lines.slice(0, 5).every((line) => line.startsWith('  - **error** writer_leftover'))).toBe(true);
    expect(lines[5]).toContain('and 2 more');
    expect(report).not.toMatch(/<script|[^\\]\]\(https/);
    expect(report).toContain('&lt;script&gt;');
    expect(report).toContain('\\[link\\]');
  });

  it('should say a run with nothing new brings an earlier run\'s unmerged articles, and list them', () => {
    const spending = { runArticles: 0, runWords: 0, runEstimatedWords: 0, perRun: 25, perMonth: 2_000, month: '2026-11', monthArticles: 2, monthWords: 3_000, onEmulator: false };
    const report = autopilotReport(summary(2, { outcome: 'unmerged', spending, later: [] }));
    expect(report.split('\n')[0]).toBe('# Articles: nothing new in this run; the branch holds 2 articles from an earlier run, not merged yet');
    expect(sectionOf(report, 'New and refreshed')).toContain('(`article-1`, new, 1,500 words)');
    expect(sectionOf(report, 'Spending')).toContain('This run: 0 articles created');
    const one = autopilotReport(summary(0, { outcome: 'unmerged', spending, later: [] }));
    expect(one.split('\n')[0]).toBe('# Articles: nothing new in this run; the branch holds changes from an earlier run, not merged yet');
  });

  it('should say the monthly cap is reached, and what is left, when it held articles back', () => {
    const report = autopilotReport(summary(2, { articles: [], outcome: 'capReached', spending: { runArticles: 0, runWords: 0, runEstimatedWords: 0, perRun: 25, perMonth: 3, month: '2026-11', monthArticles: 3, monthWords: 4_100, onEmulator: false } }));
    expect(report.split('\n')[0]).toContain('the monthly cap is reached (3 of 3 this month), 2 left for the next run');
    expect(sectionOf(report, 'Spending')).toContain('This month (2026-11, UTC): 3 articles created, 4,100 words billed (cap 3, 0 articles left this month)');
  });
});
