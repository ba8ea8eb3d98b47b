// Which service a run talks to, with which key, or offline: decided once, here, for the loader and the CLI alike.
import { ArticleLoaderError } from '../errors.js';
import type { EmulatorTiming, EmulatorWriter, FlawOptions } from './embedded-emulator.js';
import { envValue } from '../lang/env-value.js';
import { urlForMessage } from '../lang/url-for-message.js';
import { apiKeyProblem, serviceAddressProblems } from '../contract/service-address.js';

/** The environment variables read when nothing more explicit says where the service is. */
export const API_KEY_ENV = 'ARTICLES_API_KEY';
export const API_URL_ENV = 'ARTICLES_API_URL';

/**
 * - `remote`: the real service (or any service at `baseUrl`), with the key.
 * - `offline`: the embedded emulator writes placeholder articles, for free.
 */
export type ServiceSettings =
  | { mode: 'remote'; baseUrl: string; apiKey: string; source: 'options' | 'env' }
  | { mode: 'offline'; timing: EmulatorTiming; writer?: EmulatorWriter | undefined; flaws?: FlawOptions | undefined };

/** Who is asking: the message says what to do in their terms (astro:env, or an exported variable). */
export type ServiceAudience = 'loader' | 'cli';

/** The service is half configured (an address without a key, a key without an address), its address is not an http(s) URL or carries credentials, a query or a fragment, or its key cannot be sent (contract/service-address.ts). */
export class ServiceConfigError extends ArticleLoaderError {
  constructor(message: string) {
    super('service_not_configured', message);
  }
}

const ASTRO_ENV_HELP = [
  'Declare the key as a secret in astro.config.mjs:',
  "    env: { schema: { ARTICLES_API_KEY: envField.string({ context: 'server', access: 'secret' }) } }",
  "  (import { defineConfig, envField } from 'astro/config'), set ARTICLES_API_KEY in .env or your host's settings, and pass it:",
  "    import { ARTICLES_API_KEY } from 'astro:env/server';",
  '    articleLoader({ baseUrl: ..., apiKey: ARTICLES_API_KEY })',
  '  Or leave baseUrl out (and ARTICLES_API_URL unset) to build offline against the embedded emulator.',
].join('\n');

const CLI_HELP = (command: string): string => `Set the service's address and your key in the environment:
  export ARTICLES_API_URL=https://<the service's base URL>
  export ARTICLES_API_KEY=<your key>        # never as a flag: it would land in shell history
To try it for free, run the local emulator in another terminal:
  npx astro-article-loader emulator
  ARTICLES_API_URL=http://127.0.0.1:4010 ARTICLES_API_KEY=emulator-dev-key npx astro-article-loader ${command}`;

export interface ServiceChoice {
  /** Given explicitly (loader options, `--base-url`); the environment fills in the rest. */
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  /** Offline when neither a key nor an address is set anywhere (the loader), or never (the CLI, unless `--offline`). */
  offlineWhenUnset: boolean;
  timing?: EmulatorTiming;
  /** Offline: the language model the embedded emulator writes with (else `ARTICLES_WRITER_URL`, else placeholder text). */
  writer?: EmulatorWriter | undefined;
  /** Offline: articles the embedded emulator writes with planted flaws (a fixture site trying the quality checks). */
  flaws?: FlawOptions | undefined;
  audience: ServiceAudience;
  /** For the CLI's message: the command and what it needs the service for. */
  command?: string;
  why?: string;
  /** The command has `--offline`: the message mentions it. */
  offlineFlag?: boolean;
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^/\s]+/.test(value) && URL.canParse(value);
}

/**
 * The service to talk to: explicit values first, then `ARTICLES_API_KEY` / `ARTICLES_API_URL`.
 * With neither, offline (the embedded emulator) when `offlineWhenUnset`, else an error saying how
 * to configure it. An address without a key, or a key without an address, is always an error.
 */
export function chooseService(choice: ServiceChoice, env: Readonly<Record<string, string | undefined>> = process.env): ServiceSettings {
  const givenKey = choice.apiKey?.trim() === '' ? undefined : choice.apiKey?.trim();
  const apiKey = givenKey ?? envValue(env, API_KEY_ENV);
  const givenUrl = choice.baseUrl?.trim() === '' ? undefined : choice.baseUrl?.trim();
  const baseUrl = givenUrl ?? envValue(env, API_URL_ENV);
  const where = choice.audience === 'loader' ? 'articleLoader(): ' : '';
  const doing = choice.why === undefined ? '' : `${choice.why}, but `;
  if (baseUrl === undefined && apiKey === undefined) {
    if (choice.offlineWhenUnset) return { mode: 'offline', timing: choice.timing ?? 'fast', ...(choice.writer === undefined ? {} : { writer: choice.writer }), ...(choice.flaws === undefined ? {} : { flaws: choice.flaws }) };
    const offline = choice.offlineFlag === true ? '\nOr pass --offline to use an embedded emulator (placeholder articles, free), as the loader does without a key.' : '';
    throw new ServiceConfigError(`${doing}no article service is configured.\n${CLI_HELP(choice.command ?? 'sync')}${offline}`);
  }
  if (apiKey === undefined) {
    const from = givenUrl === undefined ? `${API_URL_ENV} is set` : choice.audience === 'loader' ? '`baseUrl` is set' : '--base-url is set';
    const help = choice.audience === 'loader' ? `\n  ${ASTRO_ENV_HELP}` : ` Set ${API_KEY_ENV} in the environment (never as a flag).\n${CLI_HELP(choice.command ?? 'sync')}`;
    throw new ServiceConfigError(`${where}${doing}${from} but no API key was given (${choice.audience === 'loader' ? `neither \`apiKey\` nor ${API_KEY_ENV}` : `${API_KEY_ENV} is not set`}).${help}`);
  }
  if (baseUrl === undefined) {
    const from = givenKey === undefined ? `${API_KEY_ENV} is set` : '`apiKey` is set';
    const fix = choice.audience === 'loader' ? 'pass `baseUrl` (e.g. baseUrl: "https://api.example.com") or set ' : 'pass --base-url <url> or set ';
    const offline = choice.audience === 'loader' ? ` Unset ${API_KEY_ENV} to build offline against the embedded emulator instead.` : '';
    throw new ServiceConfigError(`${where}${doing}${from} but the service address is not: ${fix}${API_URL_ENV}.${offline}`);
  }
  const urlFrom = givenUrl === undefined ? API_URL_ENV : choice.audience === 'loader' ? '`baseUrl`' : '--base-url';
  if (!isHttpUrl(baseUrl)) throw new ServiceConfigError(`${where}${urlFrom} must be an absolute http(s) URL, e.g. https://api.example.com (got "${urlForMessage(baseUrl)}").`);
  const addressProblems = serviceAddressProblems(new URL(baseUrl));
  if (addressProblems.length > 0) throw new ServiceConfigError(`${where}${urlFrom} ${addressProblems.join('; ')} (got "${urlForMessage(baseUrl)}").`);
  const keyProblem = apiKeyProblem(apiKey);
  // The key itself is never shown, only where it came from.
  if (keyProblem !== undefined) throw new ServiceConfigError(`${where}${givenKey === undefined ? API_KEY_ENV : '`apiKey`'} ${keyProblem}.`);
  return { mode: 'remote', baseUrl, apiKey, source: givenKey === undefined ? 'env' : 'options' };
}
