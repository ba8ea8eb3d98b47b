// Reading a streamed Chat Completions answer: server-sent events of `data: {json}` chunks, ended by `data: [DONE]`.
import { ModelWriterError, serverMessage } from './writer-error.js';

/** The text of an answer and how it ended. */
export interface StreamedAnswer {
  text: string;
  /** `finish_reason` of the last choice that had one (`stop`, `length`, …), null when none said. */
  finishReason: string | null;
  /** `[DONE]` arrived (a streamed answer that ends without it nor a finish_reason was cut off). */
  done: boolean;
}

interface Chunk {
  choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
  error?: unknown;
}

/** Apply one event's data to the answer; a chunk carrying `error` (llama.cpp sends one mid-stream) throws. */
function applyEvent(data: string, answer: StreamedAnswer, where: string, doing: string): void {
  if (data === '[DONE]') {
    answer.done = true;
    return;
  }
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    throw new ModelWriterError('writer_bad_answer', `${where} streamed a chunk that is not JSON while ${doing}. Check that the server speaks the OpenAI Chat Completions protocol.`);
  }
  if (chunk.error !== undefined) {
    const said = serverMessage(JSON.stringify({ error: chunk.error }));
    const contextError = /context|too (?:long|large)|tokens/i.test(said);
    throw new ModelWriterError(contextError ? 'writer_context_length' : 'writer_server_error', `${where} reported an error in its stream while ${doing}: "${said}". Check the server's log${contextError ? ' and give the model a larger context' : ''}.`);
  }
  const choice = chunk.choices?.[0];
  if (choice === undefined) return;
  const content = choice.delta?.content;
  if (typeof content === 'string') answer.text += content;
  if (typeof choice.finish_reason === 'string') answer.finishReason = choice.finish_reason;
}

/** Splits the stream's text into lines at CRLF, CR or LF, a CR at a chunk's end waiting for a possible LF. */
class LineReader {
  #buffer = '';

  /** The whole lines of `text` (appended to what was left); `last` flushes the rest as a final line. */
  *lines(text: string, last = false): Generator<string> {
    this.#buffer += text;
    let at: number;
    while ((at = this.#buffer.search(/\r\n|\r|\n/)) !== -1) {
      if (!last && at === this.#buffer.length - 1 && this.#buffer.endsWith('\r')) return;
      const breakLength = this.#buffer.startsWith('\r\n', at) ? 2 : 1;
      const line = this.#buffer.slice(0, at);
      this.#buffer = this.#buffer.slice(at + breakLength);
      yield line;
    }
    if (last && this.#buffer !== '') {
      yield this.#buffer;
      this.#buffer = '';
    }
  }
}

/** How long a server may take to end its response after `[DONE]` before the body is let go. */
const END_AFTER_DONE_MS = 2_000;

/** A response's body: its chunks, and destroy() to let the connection go (undici's BodyReadable is one). */
export interface ResponseBody extends AsyncIterable<Uint8Array> {
  destroy(): unknown;
}

/**
 * After `[DONE]` the answer is complete, but the server still ends its response: wait for that end,
 * so the connection goes back to the pool for the next call (dropping the body closes it). A
 * server that keeps the response open is cut off after END_AFTER_DONE_MS.
 */
async function finishAfterDone(body: ResponseBody, chunks: AsyncIterator<Uint8Array>): Promise<void> {
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const end = (async () => {
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next());
    ended = true;
  })();
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, END_AFTER_DONE_MS)));
  await Promise.race([end, late]).catch(() => undefined);
  clearTimeout(timer);
  if (!ended) body.destroy();
}

/**
 * Read the event stream of a response's body to its end. Events are separated by a blank line; an
 * event's `data:` lines join with newlines; comments (`:`) and other fields are ignored.
 */
export async function readEventStream(body: ResponseBody, where: string, doing: string): Promise<StreamedAnswer> {
  const answer: StreamedAnswer = { text: '', finishReason: null, done: false };
  const chunks = body[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  const lines = new LineReader();
  let data: string[] = [];
  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) applyEvent(data.join('\n'), answer, where, doing);
      data = [];
    } else if (text.startsWith('data:')) {
      data.push(text.slice(5).replace(/^ /, ''));
    }
  };
  try {
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
      for (const text of lines.lines(decoder.decode(next.value, { stream: true }))) {
        line(text);
        if (answer.done) {
          await finishAfterDone(body, chunks);
          return answer;
        }
      }
    }
  } catch (error) {
    body.destroy();
    throw error;
  }
  for (const text of lines.lines(decoder.decode(), true)) line(text);
  line('');
  return answer;
}
