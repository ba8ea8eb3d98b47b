// `astro-article-loader check`: the quality findings on what the build publishes, with the manifest's `quality:` settings; exit 5 when one is an error. Reads the lock file and cache only.
import { manifestQuality, QUALITY_CODES, type Finding } from '../../quality/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { currentQuality } from '../current-findings.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { plural } from '../output.js';
import { openProject } from '../project-files.js';

export const CHECK_COMMAND: CommandDefinition = {
  name: 'check',
  summary: "Run the quality checks on every finished article as the build publishes it; exit 5 when a finding is an error.",
  flags: {},
  help: `Usage: astro-article-loader check [options]

Runs the quality checks (docs/quality.md) on every finished article of the manifest, on
the HTML the build publishes: the build's processed record of the article's current output
and hand edit (articles.cache/processed/) when there is one, else the cached output (or the
hand edit) put through the pipeline now with default settings. near_duplicate compares the
articles with each other. The settings are the manifest's \`quality:\`.

It reads the lock file and the cache only: no service, no key, 0 requests.

Options:
${COMMON_FLAG_HELP}

Examples:
  npx astro-article-loader check
  npx astro-article-loader check --json | jq '.findings[] | select(.severity == "error")'

${EXIT_CODE_HELP}`,
  body: runCheck,
};

async function runCheck({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const project = await openProject(io.cwd, flags, output);
  const settings = manifestQuality(project.manifest);
  const { findings: bySlug, sources } = await currentQuality(project, settings);
  const order = new Map(QUALITY_CODES.map((code, index) => [code, index]));
  const findings: Finding[] = [...bySlug.values()].flat().sort((a, b) => a.slug.localeCompare(b.slug) || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) || order.get(a.code)! - order.get(b.code)!);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const exitCode = errors > 0 ? EXIT_CODES.qualityErrors : EXIT_CODES.ok;
  const processedNow = [...sources.values()].filter((source) => source === 'pipeline').length;
  const counts = { articles: bySlug.size, withFindings: new Set(findings.map((f) => f.slug)).size, errors, warnings: findings.length - errors, fromRecords: bySlug.size - processedNow, processedNow };
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'check', exitCode, findings: findings.map(({ slug, code, severity, message }) => ({ slug, code, severity, message })), counts });
    return exitCode;
  }
  const { style } = output;
  for (const finding of findings) {
    const tone = finding.severity === 'error' ? style.red : style.yellow;
    output.out(`${style.bold(finding.slug)}  ${tone(finding.severity)} ${finding.code}: ${finding.message}`);
  }
  if (findings.length > 0) output.out();
  const from =
    processedNow === 0
      ? "each as the last build processed it (its processed record)"
      : `${counts.fromRecords} as the last build processed ${counts.fromRecords === 1 ? 'it' : 'them'}, ${processedNow} without a record of ${processedNow === 1 ? 'its' : 'their'} current output, put through the pipeline now with default settings (a build's own link and page options may change what it publishes)`;
  output.out(`${plural(bySlug.size, 'article')} checked (${from}): ${plural(errors, 'error')}, ${plural(counts.warnings, 'warning')}.`);
  if (errors > 0) output.out(style.red('An error finding: regenerate the article, edit it (astro-article-loader edit <slug>), or change its request; or set the code to "warning" or "off" under quality.codes in the manifest.'));
  return exitCode;
}
