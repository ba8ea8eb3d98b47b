// Sync progress on stderr: a live region redrawn in place on a terminal, plain lines (one per state change) elsewhere.
import stringWidth from 'string-width';
import { formatCount, formatDuration, type Output, type Style } from './output.js';
import type { ArticleProgress, ProgressNote, SyncProgress } from './sync-progress.js';

export interface ProgressDisplay {
  /** Notes from an event: lines of their own. */
  notes(notes: readonly ProgressNote[]): void;
  /** The model changed: redraw (throttled) if this display redraws. */
  update(): void;
  /** A message of the CLI itself (e.g. "stopping"). */
  message(text: string): void;
  /** Removes the live region, if any; the summary follows on stdout. Idempotent. */
  stop(): void;
}

const ESC = '\u001b[';
const HIDE_CURSOR = `${ESC}?25l`;
const SHOW_CURSOR = `${ESC}?25h`;
const CLEAR_LINE = `${ESC}2K`;
const CLEAR_BELOW = `${ESC}J`;
const cursorUp = (lines: number): string => (lines > 0 ? `${ESC}${lines}A` : '');
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `text` cut to `width` terminal columns (wide characters count 2), with an ellipsis when cut. */
export function fitWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(text) <= width) return text;
  let result = '';
  let used = 0;
  for (const char of text) {
    const w = stringWidth(char);
    if (used + w > width - 1) break;
    result += char;
    used += w;
  }
  return `${result}…`;
}

function padWidth(text: string, width: number): string {
  const fitted = fitWidth(text, width);
  return fitted + ' '.repeat(Math.max(0, width - stringWidth(fitted)));
}

function bar(fraction: number, width: number, style: Style): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return style.green('█'.repeat(filled)) + style.dim('░'.repeat(width - filled));
}

function percent(fraction: number): string {
  return `${Math.floor(Math.max(0, Math.min(1, fraction)) * 100)}%`.padStart(4);
}

/**
 * The live display: one line per article in flight (status, detail, progress bar) and a total
 * line, redrawn in place with "cursor up + clear line" in a single write per frame, at most every
 * `intervalMs`, and only when the frame changed. Finished and failed articles get a permanent
 * line above the region, so the scrollback is a log of what happened.
 */
export class LiveProgressDisplay implements ProgressDisplay {
  readonly #output: Output;
  readonly #progress: SyncProgress;
  readonly #style: Style;
  readonly #intervalMs: number;
  #height = 0;
  #lastFrame = '';
  #lastDraw = 0;
  #pending: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #ticker: NodeJS.Timeout | undefined;
  #tick = 0;
  #stopped = false;
  #message = '';
  readonly #restoreCursor = (): void => {
    this.#output.io.stderr.write(SHOW_CURSOR);
  };

  constructor(output: Output, progress: SyncProgress, options: { intervalMs?: number } = {}) {
    this.#output = output;
    this.#progress = progress;
    this.#style = output.errStyle;
    this.#intervalMs = options.intervalMs ?? 100;
    output.errRaw(HIDE_CURSOR);
    // However the process ends (a second Ctrl-C exits at once), the cursor comes back.
    process.once('exit', this.#restoreCursor);
    // Elapsed time and the spinner move even when no event arrives.
    this.#ticker = setInterval(() => {
      this.#tick += 1;
      this.update();
    }, 500);
    this.#ticker.unref();
  }

  notes(notes: readonly ProgressNote[]): void {
    const s = this.#style;
    for (const note of notes) {
      const slug = note.slug === undefined ? '' : `${s.bold(note.slug)} `;
      switch (note.kind) {
        case 'finished':
          this.#pending.push(`${s.green('✓')} ${slug}${s.dim(`finished (${note.text})`)}`);
          break;
        case 'fetched':
          this.#pending.push(`${s.green('✓')} ${slug}${s.dim(`fetched (${note.text})`)}`);
          break;
        case 'restored':
          this.#pending.push(`${s.green('✓')} ${slug}${s.dim(`restored (${note.text})`)}`);
          break;
        case 'failed':
          this.#pending.push(`${s.red('✗')} ${slug}${s.red(`failed: ${note.text}`)}`);
          break;
        case 'unknown':
          this.#pending.push(`${s.red('?')} ${slug}${s.red(`create outcome unknown: ${note.text}`)}`);
          break;
        case 'plan':
          this.#pending.push(`${s.bold('Plan:')} ${note.text}`);
          break;
        case 'warning':
        case 'lock-wait':
          this.#pending.push(`${s.yellow('!')} ${slug}${note.text}`);
          break;
        case 'created':
        case 'status':
          // Visible in the region; a permanent line each would flood the scrollback.
          break;
      }
    }
    this.update();
  }

  message(text: string): void {
    this.#message = text;
    this.update();
  }

  update(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    const wait = this.#lastDraw + this.#intervalMs - Date.now();
    if (wait <= 0) this.#draw();
    else {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#draw();
      }, wait);
      this.#timer.unref();
    }
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearInterval(this.#ticker);
    this.#timer = undefined;
    const persist = this.#pending.map((line) => `${CLEAR_LINE}${line}\n`).join('');
    this.#pending = [];
    this.#output.errRaw(`\r${cursorUp(this.#height)}${persist}${CLEAR_BELOW}${SHOW_CURSOR}`);
    this.#height = 0;
    process.off('exit', this.#restoreCursor);
  }

  #draw(): void {
    if (this.#stopped) return;
    const region = this.#frame();
    const frame = region.join('\n');
    if (frame === this.#lastFrame && this.#pending.length === 0) return;
    const lines = [...this.#pending, ...region];
    this.#pending = [];
    // One write per frame: move to the region's first line, overwrite each line, clear what is left below.
    // "\r" first: the terminal's echo of ^C (or anything typed) may have moved the cursor off column 0.
    this.#output.errRaw(`\r${cursorUp(this.#height)}${lines.map((line) => `${CLEAR_LINE}${line}\n`).join('')}${CLEAR_BELOW}`);
    this.#height = region.length;
    this.#lastFrame = frame;
    this.#lastDraw = Date.now();
  }

  #frame(): string[] {
    const s = this.#style;
    const stream = this.#output.io.stderr;
    // One column spare: writing into the last column makes some terminals wrap, which breaks "cursor up".
    const width = Math.max(20, (stream.columns ?? 80) - 1);
    const maxRows = Math.max(1, Math.min(10, (stream.rows ?? 24) - 4));
    const inFlight = this.#progress.inFlight();
    const shown = inFlight.slice(0, maxRows);
    const slugWidth = Math.min(28, Math.max(8, ...shown.map((a) => stringWidth(a.slug))));
    const lines = shown.map((article) => this.#articleLine(article, width, slugWidth));
    const counts = this.#progress.counts();
    const more = inFlight.length - shown.length;
    const extra = [more > 0 ? `${formatCount(more)} more in flight` : '', counts.toCreate > 0 ? `${formatCount(counts.toCreate)} to create` : '']
      .filter((p) => p !== '')
      .join(', ');
    if (extra !== '') lines.push(s.dim(fitWidth(`  … ${extra}`, width)));

    const spinner = this.#progress.stopping ? '■' : SPINNER[this.#tick % SPINNER.length]!;
    const label = this.#progress.stopping ? 'Stopping' : this.#progress.lockWait ? 'Waiting for the lock' : 'Syncing';
    const elapsed = formatDuration(Date.now() - this.#progress.started);
    const parts = [`${formatCount(counts.done)}/${formatCount(counts.total)} done`, `${formatCount(this.#progress.created)} created`];
    if (counts.failed > 0) parts.push(`${formatCount(counts.failed)} failed`);
    const head = `${spinner} ${label} ${parts.join(' · ')}`;
    const tail = ` ${percent(counts.fraction)}  ${elapsed}`;
    const barWidth = Math.max(0, Math.min(24, width - stringWidth(head) - stringWidth(tail) - 3));
    const total =
      barWidth >= 6
        ? `${s.bold(head)}  ${bar(counts.fraction, barWidth, s)}${tail}`
        : s.bold(fitWidth(`${head}${tail}`, width));
    lines.push(total);
    if (this.#message !== '') lines.push(s.yellow(fitWidth(this.#message, width)));
    return lines;
  }

  #articleLine(article: ArticleProgress, width: number, slugWidth: number): string {
    const s = this.#style;
    const status = article.phase === 'fetching' || article.phase === 'creating' ? article.phase : (article.status ?? 'waiting');
    const statusWidth = 10;
    const barWidth = 12;
    const fixed = 2 + slugWidth + 2 + statusWidth + 2 + barWidth + 5;
    if (fixed > width) return fitWidth(`  ${article.slug}  ${status} ${percent(article.progress)}`, width);
    const detailWidth = width - fixed - 2;
    const detail = detailWidth >= 8 ? `${padWidth(article.detail ?? '', detailWidth)}  ` : '';
    return `  ${s.bold(padWidth(article.slug, slugWidth))}  ${s.cyan(padWidth(status, statusWidth))}  ${s.dim(detail)}${bar(article.progress, barWidth, s)}${percent(article.progress)}`;
  }
}

/** Off a terminal: one plain line per state change (created, status change, finished, failed), never one per poll. */
export class LineProgressDisplay implements ProgressDisplay {
  readonly #output: Output;

  constructor(output: Output) {
    this.#output = output;
  }

  notes(notes: readonly ProgressNote[]): void {
    const s = this.#output.errStyle;
    for (const note of notes) {
      const label = note.kind === 'lock-wait' ? 'waiting' : note.kind;
      const tone = note.kind === 'failed' || note.kind === 'unknown' ? s.red : note.kind === 'warning' ? s.yellow : note.kind === 'finished' ? s.green : (t: string) => t;
      this.#output.err(`${tone(label.padEnd(9))} ${note.slug === undefined ? '' : `${note.slug} `}${note.text}`);
    }
  }

  update(): void {}

  message(text: string): void {
    this.#output.err(text);
  }

  stop(): void {}
}
