// One call to an OpenAI-compatible `POST {url}/chat/completions`: streamed (SSE) where the server streams, JSON otherwise; failures named.
import pRetry from 'p-retry';
import { Agent, request, type Dispatcher } from 'undici';
import { scrubSecret } from './secret-scrub.js';
import { readEventStream, type StreamedAnswer } from './event-stream.js';
import { ModelWriterError, serverMessage } from './writer-error.js';
import { urlForMessage } from '../../lang/url-for-message.js';
import { WRITER_KEY_ENV, type ResolvedWriterOptions } from './writer-settings.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCall {
  messages: ChatMessage[];
  /** Upper bound on the answer's tokens (`max_tokens`). */
  maxTokens: number;
  /** What the article is doing, for messages: "writing section 3 of 7". */
  doing: string;
  /** Aborted when the emulator stops or resets. */
  signal: AbortSignal;
}

/** Servers say "context" in many ways: llama.cpp, vLLM, OpenAI, TGI, LM Studio. */
const CONTEXT_LENGTH = /context[ _-]?(?:length|size|window)|exceed_context|maximum context|too many tokens|input is too large|prompt is too long|exceeds? the (?:model'?s? )?(?:maximum|max)/i;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Reasoning models think aloud between these tags; only the answer after them is the article's. */
const THINKING = /<think>[\s\S]*?(?:<\/think>|$)/g;

/** The client of one writer server. `close()` lets its connections go. */
export class ChatCompletions {
  readonly #settings: ResolvedWriterOptions;
  readonly #agent: Agent;
  readonly #where: string;

  constructor(settings: ResolvedWriterOptions) {
    this.#settings = settings;
    // The timeouts are idle timeouts: the first bytes, and each next chunk, must come within timeoutMs.
    this.#agent = new Agent({ headersTimeout: settings.timeoutMs, bodyTimeout: settings.timeoutMs, connect: { timeout: Math.min(settings.timeoutMs, 30_000) } });
    this.#where = `The writer at ${urlForMessage(settings.url)}`;
  }

  /** The answer's text (thinking removed, trimmed). Throws ModelWriterError; retries refused connections and 5xx first. */
  async complete(call: ChatCall): Promise<string> {
    const { retries } = this.#settings;
    try {
      return await pRetry(() => this.#attempt(call), {
        retries,
        minTimeout: 500,
        factor: 2,
        unref: true,
        signal: call.signal,
        shouldRetry: ({ error }) => error instanceof ModelWriterError && error.retryable,
      });
    } catch (error) {
      if (call.signal.aborted || !(error instanceof ModelWriterError)) throw error;
      const after = error.retryable && retries > 0 ? ` (also after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
      throw new ModelWriterError(error.code, this.#scrub(error.message.replace(/\{after\}/, after)), error.retryable);
    }
  }

  /** Drop the connections; calls still running (aborted by then) end at once. */
  close(): Promise<void> {
    return this.#agent.destroy();
  }

  #scrub(text: string): string {
    return scrubSecret(text, this.#settings.apiKey);
  }

  async #attempt(call: ChatCall): Promise<string> {
    const { url, model, apiKey, stream } = this.#settings;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream, application/json' : 'application/json' };
    if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
    const body = JSON.stringify({ model, messages: call.messages, max_tokens: call.maxTokens, temperature: 0.7, stream });
    let answer: StreamedAnswer;
    try {
      // undici's request(), not fetch(): 0.6 ms instead of 1.5 ms per call measured here, over the dozen calls of an article.
      const response = await request(`${url}/chat/completions`, { method: 'POST', headers, body, signal: call.signal, dispatcher: this.#agent });
      if (response.statusCode < 200 || response.statusCode > 299) throw await this.#httpError(response, call.doing);
      const type = String(response.headers['content-type'] ?? '');
      answer = type.includes('text/event-stream') ? await readEventStream(response.body, this.#where, call.doing) : await this.#readJson(response.body, call.doing);
    } catch (error) {
      throw this.#transportError(error, call);
    }
    return this.#checked(answer, call.doing);
  }

  #checked(answer: StreamedAnswer, doing: string): string {
    if (answer.finishReason === 'length') {
      throw new ModelWriterError('writer_answer_cut_off', `${this.#where} stopped at its token limit (finish_reason "length") while ${doing}: the answer was cut off. Give the server a larger context (llama.cpp: -c; vLLM: --max-model-len; Ollama: num_ctx) or ask for a shorter article.`);
    }
    if (answer.finishReason === null && !answer.done) {
      throw new ModelWriterError('writer_answer_cut_off', `${this.#where} ended its streamed answer without finishing it (no finish_reason, no [DONE]) while ${doing}. Check the server's log; it may have crashed or run out of memory.`);
    }
    const text = answer.text.replace(THINKING, '').trim();
    if (text === '') {
      throw new ModelWriterError('writer_empty_answer', `${this.#where} sent an empty answer while ${doing}. Check that --writer-model names a chat (instruct) model the server has loaded.`);
    }
    return text;
  }

  async #readJson(body: Dispatcher.ResponseData['body'], doing: string): Promise<StreamedAnswer> {
    let parsed: unknown;
    try {
      parsed = await body.json();
    } catch {
      throw new ModelWriterError('writer_bad_answer', `${this.#where} answered with something that is not JSON while ${doing}. Check that --writer-url is the server's OpenAI-compatible base, e.g. http://127.0.0.1:8080/v1.`);
    }
    const choice = (parsed as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] } | null)?.choices?.[0];
    if (choice === undefined) {
      throw new ModelWriterError('writer_bad_answer', `${this.#where} answered without choices[0] while ${doing}: not a Chat Completions answer. Check that --writer-url ends with the API base, e.g. /v1.`);
    }
    const content = choice.message?.content;
    return { text: typeof content === 'string' ? content : '', finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : 'stop', done: true };
  }

  async #httpError(response: Dispatcher.ResponseData, doing: string): Promise<ModelWriterError> {
    const said = serverMessage(await response.body.text().catch(() => ''));
    const status = response.statusCode;
    const quoted = said === '' ? '' : `: "${said}"`;
    if (status >= 300 && status < 400) {
      const location = String(response.headers.location ?? 'elsewhere');
      return new ModelWriterError('writer_rejected', `${this.#where} answered HTTP ${status}, a redirect to ${this.#scrub(location)}, while ${doing}: set --writer-url to the API base the server uses (requests are not redirected).`);
    }
    if ((status === 400 || status === 413 || status >= 500) && CONTEXT_LENGTH.test(said)) {
      return new ModelWriterError('writer_context_length', `${this.#where} refused the prompt as too long for the model's context (HTTP ${status}${quoted}) while ${doing}. Start the server with a larger context (llama.cpp: -c 8192; vLLM: --max-model-len 8192; Ollama: num_ctx) or ask for a shorter article.`);
    }
    if (status >= 500 || status === 429) {
      return new ModelWriterError('writer_server_error', `${this.#where} answered HTTP ${status}${quoted} while ${doing}{after}. Check the server's log; lower --writer-concurrency if it is overloaded.`, true);
    }
    const advice =
      status === 401 || status === 403
        ? `it refused the key: set ${WRITER_KEY_ENV} to a key the server accepts (or unset it for a server without keys)`
        : status === 404
          ? 'check that --writer-url is the API base (e.g. http://127.0.0.1:8080/v1; /chat/completions is appended) and that --writer-model names a loaded model'
          : 'check the server supports the Chat Completions protocol and --writer-model';
    return new ModelWriterError('writer_rejected', `${this.#where} refused the request with HTTP ${status}${quoted} while ${doing}: ${advice}.`);
  }

  #transportError(error: unknown, call: ChatCall): unknown {
    if (error instanceof ModelWriterError || call.signal.aborted) return error;
    const code = errorCode(error);
    if (code !== undefined && TIMEOUT_CODES.has(code)) {
      return new ModelWriterError('writer_timeout', `${this.#where} sent nothing for ${Math.round(this.#settings.timeoutMs / 1000)} s while ${call.doing}. A slow CPU needs a longer --writer-timeout; or check that the server is not stuck.`);
    }
    if (code === undefined || NETWORK_CODES.has(code) || error instanceof TypeError) {
      const what = code === 'ECONNREFUSED' ? 'refused the connection' : `could not be reached or closed the connection (${code ?? 'network error'})`;
      return new ModelWriterError('writer_unreachable', `${this.#where} ${what} while ${call.doing}{after}. Start the server (see "Write with your own model" in docs/emulator.md) or fix --writer-url.`, true);
    }
    return error;
  }
}

/** The code of a fetch failure: undici puts the socket's in `cause`. */
function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== null && typeof current === 'object' && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
