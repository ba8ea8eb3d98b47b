// Reading a streamed Chat Completions answer: server-sent events of `data: {json}` chunks, ended by `data: [DONE]`.
import type { Response } from 'undici';
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

/**
 * Read the event stream to its end. Events are separated by a blank line; an event's `data:` lines
 * join with newlines; comments (`:`) and other fields are ignored.
 */
export async function readEventStream(response: Response, where: string, doing: string): Promise<StreamedAnswer> {
  const answer: StreamedAnswer = { text: '', finishReason: null, done: false };
  if (response.body === null) return answer;
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) applyEvent(data.join('\n'), answer, where, doing);
      data = [];
    } else if (text.startsWith('data:')) {
      data.push(text.slice(5).replace(/^ /, ''));
    }
  };
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes as Uint8Array, { stream: true });
    let at: number;
    while ((at = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const breakLength = buffer.startsWith('\r\n', at) ? 2 : 1;
      line(buffer.slice(0, at));
      buffer = buffer.slice(at + breakLength);
      if (answer.done) return answer;
    }
  }
  buffer += decoder.decode();
  if (buffer !== '') line(buffer);
  line('');
  return answer;
}
