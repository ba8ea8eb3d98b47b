// The GitHub workflows `init github` writes: articles.yml (the unattended run and its pull request) and deploy.yml (a daily frozen rebuild, on GitHub Pages or through a host's deploy hook).
import { serviceAddressProblems } from '../contract/service-address.js';
import type { Schedule } from '../manifest/schedule.js';
import { articlesCron, deployCrons, type CronLine } from './workflow-cron.js';

/** The branch the workflow's runs continue and its pull request is opened from. */
export const AUTOPILOT_BRANCH = 'articles/autopilot';
/** Where the written workflows live, from the repository's top. */
export const ARTICLES_WORKFLOW = '.github/workflows/articles.yml';
export const DEPLOY_WORKFLOW = '.github/workflows/deploy.yml';
/** The one secret the articles workflow reads, and the deploy hook's. */
export const KEY_SECRET = 'ARTICLES_API_KEY';
export const DEPLOY_HOOK_SECRET = 'DEPLOY_HOOK_URL';

export type DeployTarget = 'pages' | 'hook';

export interface WorkflowSettings {
  /** The service's address, written as a plain value: it is not a secret (the key is). */
  serviceUrl: string;
  /** The site's folder from the repository's top, with `/`; '' at the top. */
  siteDir: string;
  /** The manifest to pass as `--manifest`, from the site's folder, when it is not the one the commands find by themselves. */
  manifest: string | undefined;
  /** The lock file to pass as `--lock-file`, from the site's folder, when one was given to `init`. */
  lockFile?: string | undefined;
  /** The branch a merged pull request lands on (deploy.yml on Pages also runs on a push to it). */
  base: string;
  /** Every distinct schedule of the manifest: the crons come from them. */
  schedules: readonly Schedule[];
}

/** Why `text` cannot be the address written into the workflow (not a URL; credentials, a query or a fragment); empty when it can. */
export function serviceUrlProblems(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return ['is not a URL: give the service\'s address, e.g. https://api.example.com'];
  }
  return serviceAddressProblems(url);
}

/** A YAML scalar that stays text whatever it holds (a JSON string is a YAML double-quoted scalar). */
const quoted = (text: string): string => JSON.stringify(text);

/** A word for a `run:` line, as bash reads it: single-quoted. */
const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const cronLines = (lines: readonly CronLine[]): string => lines.map((line) => `    - cron: ${quoted(line.cron)}   # ${line.said}\n`).join('');

/** A job's lines that run its steps in the site's folder and key setup-node's cache on its lock file. */
function siteFolder(settings: WorkflowSettings): { defaults: string; cachePath: string } {
  if (settings.siteDir === '') return { defaults: '', cachePath: '' };
  return {
    defaults: `    defaults:\n      run:\n        working-directory: ${quoted(settings.siteDir)}\n`,
    cachePath: `          cache-dependency-path: ${quoted(`${settings.siteDir}/package-lock.json`)}\n`,
  };
}

const SETUP_STEPS = (cachePath: string): string => `      - uses: actions/setup-node@v5
        with:
          node-version: 22
          cache: npm
${cachePath}      - run: npm ci
`;

/** articles.yml: the run on a schedule and by hand, then one pull request from the fixed branch, its body the report. */
export function articlesWorkflow(settings: WorkflowSettings): string {
  const folder = siteFolder(settings);
  const manifest =
    (settings.manifest === undefined ? '' : ` --manifest ${shellWord(settings.manifest)}`) + (settings.lockFile === undefined ? '' : ` --lock-file ${shellWord(settings.lockFile)}`);
  return `# Written by \`astro-article-loader init github\` (docs/autopilot.md in the package). Creates the
# articles the calendar needs next, within the manifest's caps, on the branch ${AUTOPILOT_BRANCH}, and
# opens or updates one pull request with the report as its body: merging it is the review's yes.
name: Articles

on:
  schedule:
${cronLines([articlesCron(settings.schedules)])}  workflow_dispatch:
    inputs:
      dry-run:
        description: Plan and report only; create, commit and push nothing
        type: boolean
        default: false
      budget:
        description: At most this many articles in this run (empty for the manifest's caps; never more than they allow)
        type: string
        default: ""

permissions: {}

# A run that dies mid-way has already pushed the ids it was billed for; a cancelled one must not
# race the next, so runs queue one after another instead of cancelling.
concurrency:
  group: articles-autopilot
  cancel-in-progress: false

jobs:
  articles:
    runs-on: ubuntu-latest
    timeout-minutes: 45
    permissions:
      contents: write
      pull-requests: write
${folder.defaults}    env:
      ARTICLES_BRANCH: ${AUTOPILOT_BRANCH}
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0
${SETUP_STEPS(folder.cachePath)}${autopilotStep(settings, manifest)}${pullRequestStep()}`;
}

/** The run: the key in this one step's env, the inputs through env (never into the script's text), the exit code kept for the next step. */
function autopilotStep(settings: WorkflowSettings, manifest: string): string {
  return `      - name: Create, wait, check and report
        id: autopilot
        env:
          ARTICLES_API_URL: ${quoted(settings.serviceUrl)}
          ARTICLES_API_KEY: \${{ secrets.${KEY_SECRET} }}
          DRY_RUN: \${{ inputs.dry-run }}
          BUDGET: \${{ inputs.budget }}
        # Exit codes: 0 nothing to do, 6 changes for the pull request, 7 a cap held work back, 8 an earlier run's
        # changes not merged yet (the next step opens a pull request when none is open); others fail the job.
        run: |
          args=(--branch "$ARTICLES_BRANCH" --report "$RUNNER_TEMP/articles-report.md" --report "$GITHUB_STEP_SUMMARY")
          if [ "$DRY_RUN" = "true" ]; then args+=(--dry-run); fi
          if [ -n "$BUDGET" ]; then args+=(--budget "$BUDGET"); fi
          code=0
          npx --no astro-article-loader autopilot${manifest} "\${args[@]}" || code=$?
          echo "exit-code=$code" >> "$GITHUB_OUTPUT"
          case "$code" in
            0|6|7|8) ;;
            *) exit "$code" ;;
          esac
`;
}

/**
 * The pull request, with GitHub's own CLI: autopilot has already committed and pushed the branch (an
 * action that commits the working tree itself would reset the branch and drop the commits pushed mid-run).
 * A body is at most 65,536 characters: a longer report is cut at a line, pointing at the run's summary.
 */
function pullRequestStep(): string {
  return `      - name: Open or update the pull request
        if: (steps.autopilot.outputs.exit-code == '6' || steps.autopilot.outputs.exit-code == '8') && inputs.dry-run != true
        env:
          CODE: \${{ steps.autopilot.outputs.exit-code }}
          GH_TOKEN: \${{ github.token }}
          GH_REPO: \${{ github.repository }}
          BASE: \${{ github.ref_name }}
          RUN_URL: \${{ github.server_url }}/\${{ github.repository }}/actions/runs/\${{ github.run_id }}
        run: |
          report="$RUNNER_TEMP/articles-report.md"
          body="$RUNNER_TEMP/articles-pull-request.md"
          awk -v max=60000 '{ size += length($0) + 1; if (size > max) exit; print }' "$report" > "$body"
          if ! cmp -s "$report" "$body"; then
            printf '\\n…the report is longer than a pull request holds; all of it is in the summary of %s\\n' "$RUN_URL" >> "$body"
          fi
          title="$(head -n 1 "$report" | sed -e 's/^# *//')"
          number="$(gh pr list --head "$ARTICLES_BRANCH" --base "$BASE" --state open --json number --jq '.[0].number // empty')"
          if [ -n "$number" ]; then
            # 8: nothing new in this run; the open pull request keeps the report of the run that made its changes.
            if [ "$CODE" = "6" ]; then gh pr edit "$number" --title "$title" --body-file "$body"; fi
          else
            gh pr create --head "$ARTICLES_BRANCH" --base "$BASE" --title "$title" --body-file "$body"
          fi
`;
}

/** deploy.yml: a frozen rebuild every day just after the slots (and on a push to the base, for Pages), so a scheduled article goes live on its date. */
export function deployWorkflow(target: DeployTarget, settings: WorkflowSettings): string {
  const header = `# Written by \`astro-article-loader init github --deploy ${target}\` (docs/autopilot.md in the package).
# Rebuilds the site every day, frozen (CI is set: the build only serves what the lock file has and
# never pays), so an article whose date has come goes live without anyone pushing.
name: Deploy

on:
  schedule:
${cronLines(deployCrons(settings.schedules))}`;
  return target === 'pages' ? `${header}${pagesJobs(settings)}` : `${header}${hookJob()}`;
}

/** GitHub Pages: build with read access only; the deploy job alone may write to Pages and mint the token it needs. */
function pagesJobs(settings: WorkflowSettings): string {
  const folder = siteFolder(settings);
  const dist = settings.siteDir === '' ? 'dist' : `${settings.siteDir}/dist`;
  return `  push:
    branches: [${quoted(settings.base)}]
  workflow_dispatch: {}

permissions: {}

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    permissions:
      contents: read
${folder.defaults}    steps:
      - uses: actions/checkout@v5
${SETUP_STEPS(folder.cachePath)}      - run: npm run build
      - uses: actions/upload-pages-artifact@v4
        with:
          path: ${quoted(dist)}

  deploy:
    needs: build
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
`;
}

/** A host that builds the site itself (Netlify, Vercel, Cloudflare Pages, …): POST to its deploy hook, a URL kept as a secret. */
function hookJob(): string {
  return `  workflow_dispatch: {}

permissions: {}

jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - name: Ask the host to rebuild the site
        env:
          DEPLOY_HOOK_URL: \${{ secrets.${DEPLOY_HOOK_SECRET} }}
        run: curl --fail --silent --show-error --retry 3 --request POST "$DEPLOY_HOOK_URL" > /dev/null
`;
}
