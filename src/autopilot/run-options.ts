// What one unattended run is given: the manifest and lock file, the clock and the caps, the branch it checkpoints to, and the ways the command lets it reach the service, the checks and the terminal.
import type { Manifest } from '../manifest/index.js';
import type { PollTiming, SyncClient } from '../sync/index.js';
import type { RunBranch } from './run-branch.js';
import type { ReportFinding } from './summary.js';

/** The service a run talks to, connected only when it has something to ask. */
export interface AutopilotService {
  client: SyncClient;
  close(): Promise<void>;
}

export interface AutopilotRunOptions {
  manifest: Manifest;
  lockFile: string;
  /** The calendar's now (ARTICLE_LOADER_NOW or the clock). */
  now: Date;
  /** The run's cap: `--budget`, else `budget.perRun`, else the default budget. */
  perRun: number;
  perMonth: number | undefined;
  /** `--offline`: the embedded emulator writes (free): nothing is billed. */
  onEmulator: boolean;
  timeoutMs: number;
  timeoutText: string;
  poll: PollTiming | undefined;
  concurrency: number;
  dryRun: boolean;
  branch: RunBranch;
  connect(why: string): Promise<AutopilotService>;
  /** The quality findings of these articles, as `check` gives them. */
  findings(slugs: readonly string[]): Promise<Map<string, ReportFinding[]>>;
  /** One progress line (stdout): a script may act on each. */
  progress(line: string): void;
  signal?: AbortSignal | undefined;
}
