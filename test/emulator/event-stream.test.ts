// Reading a streamed Chat Completions answer from the chunks a socket delivers, however the bytes are cut.
import { describe, expect, it } from 'vitest';
import { readEventStream, type ResponseBody } from '../../src/emulator/model-writer/event-stream.js';

/** A body that yields `chunks` as bytes, then ends; `destroyed` says whether the reader let it go early. */
function bodyOf(chunks: string[]): ResponseBody & { destroyed: boolean } {
  const encoder = new TextEncoder();
  return {
    destroyed: false,
    destroy() {
      this.destroyed = true;
    },
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) yield encoder.encode(chunk);
    },
  };
}

const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}`;

describe('readEventStream', () => {
  it('should join an event whose data lines are split between chunks at a CR and its LF', async () => {
    const stream = `data: {"choices":\r\ndata: [{"delta":{"content":"Hello"}}]}\r\n\r\n${delta(' world')}\r\n\r\ndata: {"choices":[{"delta":{},"finish_reason":"stop"}]}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const cut = stream.indexOf('\r\n') + 1;
    const body = bodyOf([stream.slice(0, cut), stream.slice(cut)]);
    const answer = await readEventStream(body, 'The writer', 'testing');
    expect(answer).toEqual({ text: 'Hello world', finishReason: 'stop', done: true });
    expect(body.destroyed).toBe(false);
  });

  it('should read every way of ending a line, one byte at a time, and ignore comments and other fields', async () => {
    const stream = `: keep-alive\n\nevent: message\n${delta('a')}\r\r${delta('b')}\n\n${delta('c')}\r\n\r\ndata: [DONE]\n\n`;
    const answer = await readEventStream(bodyOf([...stream]), 'The writer', 'testing');
    expect(answer).toEqual({ text: 'abc', finishReason: null, done: true });
  });

  it('should read a last event that no blank line ends, and report a stream cut before [DONE] as not done', async () => {
    const answer = await readEventStream(bodyOf([`${delta('partial')}`]), 'The writer', 'testing');
    expect(answer).toEqual({ text: 'partial', finishReason: null, done: false });
  });

  it('should let the body go when a chunk is not JSON', async () => {
    const body = bodyOf(['data: {not json\n\n', delta('never read')]);
    await expect(readEventStream(body, 'The writer', 'testing')).rejects.toThrow(/The writer streamed a chunk that is not JSON while testing/);
    expect(body.destroyed).toBe(true);
  });
});
