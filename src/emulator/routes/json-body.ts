// Reading a route's JSON request body within the size limit and checking it against a wire schema.
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { failure, invalid, invalidFields, type RouteResult } from '../answer.js';
import { BodyNotUtf8, BodyTooLarge, isJsonContentType, readBody } from '../http-exchange.js';
import { fieldErrors } from '../validation-errors.js';
import { isPlainObject } from '../../lang/plain-object.js';

/** Read and parse a JSON object body, or the 400/413 answer explaining why not. */
export async function readJsonBody(req: IncomingMessage, maxBodyBytes: number): Promise<{ body: Record<string, unknown> } | RouteResult> {
  if (!isJsonContentType(req.headers['content-type'])) {
    return {
      answer: invalid(`The request body must be JSON sent with Content-Type: application/json (got ${JSON.stringify(req.headers['content-type'] ?? 'none')}).`),
    };
  }
  let text: string;
  try {
    text = await readBody(req, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return { answer: failure(413, 'payload_too_large', `The request body is larger than ${maxBodyBytes} bytes; send less content.`), close: true };
    }
    if (error instanceof BodyNotUtf8) return { answer: invalid('The request body is not valid UTF-8.') };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { answer: invalid(`The request body is not valid JSON: ${(error as Error).message}.`) };
  }
  if (!isPlainObject(parsed)) return { answer: invalid('The request body must be a JSON object.', [{ path: '', message: 'must be a JSON object' }]) };
  return { body: parsed };
}

/** Read the JSON body and parse it with `schema`, or the 400/413 answer naming what is wrong. */
export async function parseJsonBody<T>(req: IncomingMessage, maxBodyBytes: number, schema: z.ZodType<T>): Promise<{ data: T } | RouteResult> {
  const read = await readJsonBody(req, maxBodyBytes);
  if ('answer' in read) return read;
  const parsed = schema.safeParse(read.body);
  if (!parsed.success) return { answer: invalidFields(fieldErrors(parsed.error)) };
  return { data: parsed.data };
}
