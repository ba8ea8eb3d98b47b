// The `articles()` Astro integration: the dev toolbar's Articles app, the embedded emulator's life in dev, and the build summary.
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { z } from 'zod';
import { ArticleLoaderError } from '../errors.js';
import { forAstro } from '../loader/astro-error.js';
import { warnWhenDebugPrintsEnv } from '../loader/debug-env.js';
import { loaderRuntime, shutdownRuntime } from '../loader/runtime.js';
import { embeddedEmulatorRunning, embeddedEmulatorUrl, keepEmbeddedEmulator } from '../service/embedded-emulator.js';
import { TOOLBAR_APP_ID } from './panel-state.js';
import type { QueueRelay } from './toolbar-relay.js';

/** The integration's name in Astro's logs (`[astro-article-loader]`), the same as the loader's. */
export const INTEGRATION_NAME = 'astro-article-loader';

/** Everything `articles()` accepts. The articles themselves are configured on `articleLoader()` in the content config, not here. */
export interface ArticlesIntegrationOptions {
  /** Add the Articles app to the dev toolbar (`astro dev` only). Default true. */
  toolbar?: boolean;
  /** Log a summary block at the end of `astro build`. Default true. */
  buildSummary?: boolean;
}

/** A mistake in the options given to `articles()`; the message names the option and says how to fix it. */
export class IntegrationOptionError extends ArticleLoaderError {
  constructor(message: string) {
    super('invalid_integration_options', message);
    forAstro(this);
  }
}

const optionsSchema = z.strictObject({
  toolbar: z.boolean({ error: 'must be true or false (false leaves the Articles app out of the dev toolbar)' }).optional(),
  buildSummary: z.boolean({ error: 'must be true or false (false leaves the summary out of the build log)' }).optional(),
});

function resolveOptions(input: unknown): Required<ArticlesIntegrationOptions> {
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown option ${issue.keys.map((key) => `\`${key}\``).join(', ')} (the options are toolbar, buildSummary; the articles are configured on articleLoader() in src/content.config.ts)`
        : issue.path.length === 0
          ? 'articles() takes one options object, e.g. articles({ toolbar: true })'
          : `\`${issue.path.join('.')}\` ${issue.message}`,
    );
    throw new IntegrationOptionError(`articles() in astro.config has ${problems.length === 1 ? 'a wrong option' : `${problems.length} wrong options`}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return { toolbar: parsed.data.toolbar ?? true, buildSummary: parsed.data.buildSummary ?? true };
}

/** A page with lines: the toolbar draws it in its own colour. */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">' +
  '<path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z"/><path d="M14 3v5h5"/><path d="M9 13h6M9 17h4"/></svg>';

/**
 * The companion of `articleLoader()`, added in `astro.config`:
 *
 * ```js
 * import { articles } from 'astro-article-loader';
 * export default defineConfig({ integrations: [articles()] });
 * ```
 *
 * It reads what the loaders publish instead of taking their configuration again: Astro evaluates
 * `astro.config` and the content config in separate module graphs, so every loader records its
 * queue in one process-wide object on `globalThis` (`src/loader/runtime.ts`) and the integration
 * subscribes to it. The loader works without the integration.
 *
 * - `astro dev`: an Articles app in the dev toolbar shows every manifest entry live; in offline
 *   mode one embedded emulator serves the whole dev session. When the dev server stops, the
 *   loaders' background waits end (no poll after that) and the embedded emulator stops.
 * - `astro build`: one summary block at the end of the log.
 */
export function articles(options: ArticlesIntegrationOptions = {}): AstroIntegration {
  const settings = resolveOptions(options);
  let root = process.cwd();
  let relay: QueueRelay | undefined;
  return {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:setup': ({ config, command, addDevToolbarApp, logger }) => {
        root = fileURLToPath(config.root);
        // As early as an integration can: Vite's debug log dumps the environment while it loads astro.config.
        warnWhenDebugPrintsEnv((message) => logger.warn(message));
        if (command !== 'dev' || !settings.toolbar) return;
        addDevToolbarApp({
          id: TOOLBAR_APP_ID,
          name: 'Articles',
          icon: ICON,
          // Compiled next to this module in dist/, so it resolves from the installed package.
          entrypoint: new URL('./toolbar-app.js', import.meta.url),
        });
      },
      // The panel's endpoint and relay, and the build summary, are imported by the hooks that use them: astro.config loads light.
      'astro:server:setup': async ({ server, toolbar }) => {
        // Offline, the loader would stop the emulator after each sync and start another (a new port)
        // on the next manifest edit; the dev server keeps one until it stops. Idempotent across restarts.
        keepEmbeddedEmulator('astro dev');
        if (!settings.toolbar) return;
        // One token per dev server: only its own pages receive it, over the toolbar channel.
        const [{ newPanelToken, servePanelActions }, { relayQueues }] = await Promise.all([import('./panel-endpoint.js'), import('./toolbar-relay.js')]);
        const token = newPanelToken();
        const devRelay = relayQueues(toolbar, { root, emulatorUrl: embeddedEmulatorUrl, token });
        relay = devRelay;
        servePanelActions(server.middlewares, { root, token, onActed: () => devRelay.push() });
        // Vite closes its HTTP server on a restart too (astro.config edited): that server's relay goes,
        // the loaders and the emulator stay for the restarted server, and only astro:server:done ends them.
        server.httpServer?.once('close', () => devRelay.close());
      },
      'astro:server:done': async ({ logger }) => {
        relay?.close();
        const emulator = embeddedEmulatorRunning();
        await shutdownRuntime();
        logger.debug(`stopped the article loaders' background work${emulator ? ' and the embedded emulator' : ''}`);
      },
      'astro:build:done': async ({ logger }) => {
        // Again at the end, where a log is copied from.
        warnWhenDebugPrintsEnv((message) => logger.warn(message), { again: true });
        if (!settings.buildSummary) return;
        const { formatBuildSummary } = await import('./build-summary.js');
        const summary = formatBuildSummary([...loaderRuntime().queues.values()], root);
        if (summary === undefined) {
          logger.info('no articleLoader() collection was loaded in this build, so there is no article summary (add one in src/content.config.ts)');
          return;
        }
        logger.info(summary);
      },
    },
  };
}
