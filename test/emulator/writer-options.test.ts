// Choosing the model writer: the loader's `emulator.writer` option, the environment, the embedded emulator and the command's flags.
import { afterEach, describe, expect, it } from 'vitest';
import { runEmulatorCommand, EMULATOR_COMMAND_HELP } from '../../src/emulator/command.js';
import { resolveLoaderOptions } from '../../src/loader/options.js';
import { acquireEmbeddedEmulator, stopEmbeddedEmulator } from '../../src/service/embedded-emulator.js';
import { startStandIn, type StandIn } from './openai-stand-in.js';

const SECRET = 'sk-embedded-writer-key-42';
let server: StandIn | undefined;
const savedEnv = { ...process.env };

afterEach(async () => {
  await stopEmbeddedEmulator();
  await server?.stop();
  server = undefined;
  for (const name of ['ARTICLES_WRITER_URL', 'ARTICLES_WRITER_MODEL', 'ARTICLES_WRITER_KEY']) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

describe('the loader option emulator.writer', () => {
  it('should hand the writer to the offline service settings and leave it out of the request', () => {
    const resolved = resolveLoaderOptions({ emulator: { timing: 'instant', writer: { url: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b-instruct', concurrency: 2 } } }, {});
    expect(resolved.service).toEqual({ mode: 'offline', timing: 'instant', writer: { url: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b-instruct', concurrency: 2 } });
  });

  it('should refuse a writer without a URL, a relative URL, and a key given as an option', () => {
    expect(() => resolveLoaderOptions({ emulator: { writer: { model: 'x' } } }, {})).toThrow(/`emulator\.writer\.url` is required: the base URL of an OpenAI-compatible server/);
    expect(() => resolveLoaderOptions({ emulator: { writer: { url: '/v1' } } }, {})).toThrow(/`emulator\.writer\.url` must be an absolute http\(s\) URL/);
    expect(() => resolveLoaderOptions({ emulator: { writer: { url: 'http://127.0.0.1:8080/v1', apiKey: SECRET } } }, {})).toThrow(/unknown option `emulator\.writer\.apiKey`/);
    expect(() => resolveLoaderOptions({ emulator: { writer: { url: 'http://127.0.0.1:8080/v1', apiKey: SECRET } } }, {})).not.toThrow(SECRET);
  });
});

async function writeOne(url: string, apiKey: string): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const { articleId } = (await (await fetch(`${url}/api/articles/`, { method: 'POST', headers, body: JSON.stringify({ targetKeyword: 'aeropress', articleLength: 'shorter' }) })).json()) as { articleId: string };
  for (;;) {
    const record = (await (await fetch(`${url}/api/articles/${articleId}`, { headers })).json()) as { status: string; output?: { html: string } };
    if (record.status === 'finished') return void expect(record.output!.html).toContain('Stand-in');
    expect(record.status).not.toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the embedded emulator with a writer', () => {
  it('should write with the writer it is given, the key from ARTICLES_WRITER_KEY', async () => {
    server = await startStandIn();
    process.env.ARTICLES_WRITER_KEY = SECRET;
    const lease = await acquireEmbeddedEmulator({ timing: 'instant', writer: { url: server.url, model: 'tiny' } });
    await writeOne(lease.url, lease.apiKey);
    await lease.release();
    expect(server.calls[0]!.body.model).toBe('tiny');
    expect(server.calls.every((call) => call.authorization === `Bearer ${SECRET}`)).toBe(true);
  });

  it('should take the writer from ARTICLES_WRITER_URL and ARTICLES_WRITER_MODEL when no option names one', async () => {
    server = await startStandIn();
    process.env.ARTICLES_WRITER_URL = server.url;
    process.env.ARTICLES_WRITER_MODEL = 'from-env';
    delete process.env.ARTICLES_WRITER_KEY;
    const lease = await acquireEmbeddedEmulator({ timing: 'instant' });
    await writeOne(lease.url, lease.apiKey);
    await lease.release();
    expect(server.calls[0]).toMatchObject({ authorization: undefined, body: { model: 'from-env' } });
  });
});

describe('astro-article-loader emulator --writer-*', () => {
  function io(env: NodeJS.ProcessEnv = {}) {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line), env }, out, err };
  }

  it('should document the writer flags and the key variable in --help', async () => {
    const { io: given, out } = io();
    expect(await runEmulatorCommand(['--help'], given)).toBe(0);
    expect(out.join('\n')).toBe(EMULATOR_COMMAND_HELP);
    for (const flag of ['--writer-url <url>', '--writer-model <name>', '--writer-concurrency <n>', '--writer-timeout <ms>', 'ARTICLES_WRITER_KEY']) expect(EMULATOR_COMMAND_HELP).toContain(flag);
  });

  it('should exit 2 on a bad writer URL or concurrency, and on writer flags without a URL, never echoing the key', async () => {
    const cases: [string[], RegExp][] = [
      [['--writer-url', 'localhost:8080'], /--writer-url must be the http\(s\) base URL/],
      [['--writer-url', 'http://127.0.0.1:8080/v1', '--writer-concurrency', '0'], /--writer-concurrency must be a whole number ≥ 1/],
      [['--writer-model', 'tiny'], /need --writer-url \(or ARTICLES_WRITER_URL\)/],
    ];
    for (const [args, message] of cases) {
      const { io: given, err } = io({ ARTICLES_WRITER_KEY: SECRET });
      expect(await runEmulatorCommand(['--port', '0', ...args], given), args.join(' ')).toBe(2);
      expect(err[0]).toMatch(message);
      expect(err.join('\n')).not.toContain(SECRET);
    }
  });
});
