// Reading emulator settings from a JSON config file, a domains file, and the EMULATOR_API_KEYS variable.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { IMAGE_MODELS } from '../contract/request-schema.js';
import { PLANS, type AccountOptions, type DomainOptions } from './accounts.js';
import { EmulatorError } from './errors.js';
import { AMBIGUOUS_KINDS, FAULT_ROUTES } from './faults.js';
import { flawOptionsSchema } from './flaw-options.js';
import type { EmulatorOptions } from './options.js';
import { TIMING_PRESETS } from './timing.js';

const delaySchema = z.union([z.number().nonnegative(), z.strictObject({ minMs: z.number().nonnegative(), maxMs: z.number().nonnegative() })]);
const shareSchema = z.number().min(0).max(1);
const faultOptionsShape = {
  serverErrors: shareSchema.optional(),
  rateLimitBursts: z.union([shareSchema, z.strictObject({ share: shareSchema, length: z.number().int().min(1).optional(), retryAfterSeconds: z.number().int().min(0).optional() })]).optional(),
  resetsBeforeProcessing: shareSchema.optional(),
  resetsAfterProcessing: shareSchema.optional(),
  slowResponses: z.union([shareSchema, z.strictObject({ share: shareSchema, delayMs: delaySchema.optional() })]).optional(),
  truncatedJson: shareSchema.optional(),
  invalidJson: shareSchema.optional(),
  serverErrorsAfterProcessing: shareSchema.optional(),
};

const pageSchema = z.strictObject({ url: z.url(), title: z.string().optional(), keywords: z.array(z.string().min(1)).optional() });
const domainSchema = z.strictObject({ id: z.string().min(1), pages: z.array(pageSchema) });
const domainsFileSchema = z.union([z.array(domainSchema), z.strictObject({ domains: z.array(domainSchema) })]);
const integrationSchema = z.strictObject({
  id: z.string().min(1),
  type: z.enum(['custom_webhook', 'cms']),
  url: z.url().optional(),
  secret: z.string().optional(),
  /** Name of an environment variable holding the secret, to keep it out of the file. */
  secretEnv: z.string().optional(),
});
const accountSchema = z.strictObject({
  name: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  /** Name of an environment variable holding the key, to keep it out of the file. */
  apiKeyEnv: z.string().min(1).optional(),
  plan: z.enum(PLANS).optional(),
  words: z.number().nonnegative().nullable().optional(),
  credits: z.number().nonnegative().nullable().optional(),
  domains: z.array(domainSchema).optional(),
  integrations: z.array(integrationSchema).optional(),
});

export const emulatorConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  publicUrl: z.url().optional(),
  seed: z.union([z.number(), z.string()]).optional(),
  speed: z.enum(TIMING_PRESETS).optional(),
  timing: z.strictObject({ queueDelayMs: delaySchema.optional(), writingMs: delaySchema.optional(), webhookRetryBaseMs: z.number().nonnegative().optional() }).optional(),
  workers: z.number().int().min(1).optional(),
  rateLimit: z.union([z.literal(false), z.strictObject({ requestsPerSecond: z.number().positive(), burst: z.number().int().min(1).optional() })]).optional(),
  maxBodyBytes: z.number().int().positive().optional(),
  imageUrlTtlMs: z.number().nonnegative().optional(),
  stateFile: z.string().min(1).optional(),
  idempotencyTtlMs: z.number().nonnegative().optional(),
  imageWordCost: z.partialRecord(z.enum(IMAGE_MODELS), z.number().nonnegative()).optional(),
  accounts: z.array(accountSchema).min(1).optional(),
  domains: z.union([z.array(domainSchema), z.string().min(1)]).optional(),
  integrations: z.array(integrationSchema).optional(),
  /** The model writer; its key comes from ARTICLES_WRITER_KEY only, never from the file. */
  writer: z
    .strictObject({
      url: z.url({ protocol: /^https?$/ }),
      model: z.string().min(1).optional(),
      concurrency: z.number().int().min(1).optional(),
      timeoutMs: z.number().int().min(1).optional(),
      retries: z.number().int().min(0).optional(),
      stream: z.boolean().optional(),
    })
    .optional(),
  webhooks: z.strictObject({ maxAttempts: z.number().int().min(1).optional(), maxDelayMs: z.number().nonnegative().optional(), timeoutMs: z.number().positive().optional() }).optional(),
  faults: z
    .strictObject({
      ...faultOptionsShape,
      failedArticles: z.union([shareSchema, z.strictObject({ share: shareSchema, code: z.string().optional(), message: z.string().optional() })]).optional(),
      ambiguousCreates: z.union([shareSchema, z.strictObject({ share: shareSchema, kinds: z.array(z.enum(AMBIGUOUS_KINDS)).min(1).optional() })]).optional(),
      routes: z.partialRecord(z.enum(FAULT_ROUTES), z.strictObject(faultOptionsShape)).optional(),
    })
    .optional(),
  /** Articles written with planted flaws (docs/emulator.md, "Flawed articles"). */
  flaws: flawOptionsSchema.optional(),
});

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '') || '(top level)'}: ${issue.message}`).join('; ');
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new EmulatorError('emulator_config_unreadable', `Cannot read the emulator ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check the path.`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON.parse's message, nor as the cause: it quotes the text around the mistake, and a config file may hold keys and secrets.
    throw new EmulatorError('emulator_invalid_config', `The emulator ${what} ${file} is not valid JSON${await syntaxPlace(text)}. Fix the file there.`);
  }
}

/** ' at line L, column C' where JSON text stops being valid (momoa, which says where without quoting the text), or '' when momoa cannot tell. */
async function syntaxPlace(text: string): Promise<string> {
  const { parse } = await import('@humanwhocodes/momoa');
  try {
    parse(text);
    return '';
  } catch (error) {
    const { line, column } = error as { line?: number; column?: number };
    return line === undefined || column === undefined ? '' : ` at line ${line}, column ${column}`;
  }
}

/** Domains from a JSON file: an array of `{ id, pages: [{ url, title?, keywords? }] }` or `{ domains: [...] }`. */
export async function loadDomainsFile(file: string): Promise<DomainOptions[]> {
  const parsed = domainsFileSchema.safeParse(await readJson(file, 'domains file'));
  if (!parsed.success) throw new EmulatorError('emulator_invalid_config', `The emulator domains file ${file} is invalid: ${describeIssues(parsed.error)}.`);
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.domains;
}

function fromEnv(env: NodeJS.ProcessEnv, name: string, what: string, file: string): string {
  const value = env[name];
  if (value === undefined || value === '') {
    throw new EmulatorError('emulator_invalid_config', `The emulator config ${file} takes ${what} from the environment variable ${name}, which is not set.`);
  }
  return value;
}

/**
 * Emulator options from a config file. Relative paths (stateFile, a domains file) are resolved
 * against the file's folder. Keys and secrets may come from environment variables (`apiKeyEnv`,
 * `secretEnv`) so the file can be committed.
 */
export async function loadEmulatorConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<EmulatorOptions> {
  const parsed = emulatorConfigSchema.safeParse(await readJson(file, 'config file'));
  if (!parsed.success) throw new EmulatorError('emulator_invalid_config', `The emulator config file ${file} is invalid: ${describeIssues(parsed.error)}.`);
  const config = parsed.data;
  const base = dirname(resolve(file));
  const integration = (i: z.output<typeof integrationSchema>) => {
    const { secretEnv, ...rest } = i;
    return secretEnv === undefined ? rest : { ...rest, secret: fromEnv(env, secretEnv, `the secret of integration "${i.id}"`, file) };
  };
  const accounts = config.accounts?.map((account, index): AccountOptions => {
    const name = account.name ?? `account-${index + 1}`;
    if ((account.apiKey === undefined) === (account.apiKeyEnv === undefined)) {
      throw new EmulatorError('emulator_invalid_config', `Account "${name}" in ${file} needs exactly one of apiKey or apiKeyEnv.`);
    }
    const apiKey = account.apiKey ?? fromEnv(env, account.apiKeyEnv as string, `the key of account "${name}"`, file);
    return {
      name,
      apiKey,
      ...(account.plan === undefined ? {} : { plan: account.plan }),
      ...(account.words === undefined || account.words === null ? {} : { words: account.words }),
      ...(account.credits === undefined || account.credits === null ? {} : { credits: account.credits }),
      ...(account.domains === undefined ? {} : { domains: account.domains }),
      ...(account.integrations === undefined ? {} : { integrations: account.integrations.map(integration) }),
    };
  });
  const { speed, timing, accounts: _accounts, domains, integrations, stateFile, $schema: _schema, ...rest } = config;
  return {
    ...rest,
    ...(speed !== undefined || timing !== undefined ? { timing: timing ?? speed } : {}),
    ...(accounts === undefined ? {} : { accounts }),
    ...(domains === undefined ? {} : { domains: typeof domains === 'string' ? resolve(base, domains) : domains }),
    ...(integrations === undefined ? {} : { integrations: integrations.map(integration) }),
    ...(stateFile === undefined ? {} : { stateFile: resolve(base, stateFile) }),
  };
}

/** Accounts from EMULATOR_API_KEYS (comma-separated): professional plan, unlimited balances. */
export function accountsFromEnv(value: string | undefined): AccountOptions[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const keys = value.split(',').map((key) => key.trim()).filter((key) => key !== '');
  return keys.map((apiKey, index) => ({ name: `env-${index + 1}`, apiKey, plan: 'professional' }));
}
