// Reading the service's answers: error bodies into a failure, JSON checked against its schema, linked content in any of its forms.
import { z } from 'zod';
import { shownLine } from '../lang/shown-line.js';
import { type AttemptFailure, fieldsText } from './attempt-failure.js';
import type { Answer, IncomingHttpHeaders } from './call-definition.js';
import type { FieldProblem } from './errors.js';
import { parseRetryAfter } from './retry-after.js';
import type { AttemptOutcome } from './retry-policy.js';
import { errorBodySchema } from '../contract/response-schema.js';

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The failure an answer outside 2xx stands for, with what its body says. */
export function statusFailure(answer: Answer, redact: (text: string) => string): AttemptFailure {
  const said = readErrorBody(answer, redact);
  return {
    kind: 'status',
    status: answer.status,
    detail: `the service answered ${answer.status}${said.serviceCode ? ` ${said.serviceCode}` : ''}`,
    retryAfterMs: parseRetryAfter(headerValue(answer.headers, 'retry-after')),
    ...said,
  };
}

/** What an error body says, whatever its form: our JSON shape, plain text, or nothing. */
function readErrorBody(
  answer: Answer,
  redact: (text: string) => string,
): { serviceCode: string | undefined; serviceMessage: string | undefined; fields: FieldProblem[] } {
  const text = answer.text.trim();
  const none = { serviceCode: undefined, serviceMessage: undefined, fields: [] };
  if (text === '') return none;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Plain text is shown (shortened); an HTML error page of a proxy is not worth quoting.
    const contentType = headerValue(answer.headers, 'content-type') ?? '';
    if (contentType.includes('html') || text.startsWith('<')) return none;
    return { ...none, serviceMessage: shownLine(redact(text)) };
  }
  const body = errorBodySchema.safeParse(json);
  if (!body.success) return none;
  return {
    serviceCode: typeof body.data.error === 'string' ? shownLine(redact(body.data.error)) : undefined,
    serviceMessage: body.data.message === undefined ? undefined : shownLine(redact(body.data.message), 1000),
    fields: (body.data.fields ?? []).map((field) => ({
      path: redact(Array.isArray(field.path) ? field.path.join('.') : field.path),
      message: shownLine(redact(field.message)),
    })),
  };
}


/** A successful outcome's value passed through `map`; a failure as it is. */
export function mapOutcome<T>(outcome: AttemptOutcome<T, AttemptFailure>, map: (value: T) => T): AttemptOutcome<T, AttemptFailure> {
  return outcome.ok ? { ok: true, value: map(outcome.value) } : outcome;
}

/** A JSON answer checked against `schema`, then `pick`ed: a failure when it is empty, not JSON, or of another shape. */
export function readJson<S extends z.ZodType, T>(
  answer: Answer,
  schema: S,
  redact: (text: string) => string,
  pick: (value: z.output<S>) => T,
): AttemptOutcome<T, AttemptFailure> {
  const json = parseJsonAnswer(answer, redact);
  if (!json.ok) return json;
  return validated(answer, schema.safeParse(json.value), pick);
}

function parseJsonAnswer(answer: Answer, redact: (text: string) => string): AttemptOutcome<unknown, AttemptFailure> {
  if (answer.text.trim() === '') {
    return { ok: false, failure: { kind: 'unreadable', status: answer.status, detail: `the answer (status ${answer.status}) is empty` } };
  }
  try {
    return { ok: true, value: JSON.parse(answer.text) };
  } catch (error) {
    const reason = error instanceof Error ? redact(error.message) : 'unparseable';
    return {
      ok: false,
      failure: { kind: 'unreadable', status: answer.status, detail: `the answer is not valid JSON (${shownLine(reason, 200)}; ${answer.text.length} characters)` },
    };
  }
}

function validated<T, U>(answer: Answer, result: z.ZodSafeParseResult<T>, pick: (value: T) => U): AttemptOutcome<U, AttemptFailure> {
  if (result.success) return { ok: true, value: pick(result.data) };
  // Only paths and zod's messages: the received values could be long or sensitive.
  const fields = result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  return {
    ok: false,
    failure: { kind: 'schema', status: answer.status, fields, detail: `the answer does not have the expected shape (${fieldsText(fields)})` },
  };
}

const linkedContentJsonSchema = z.union([
  z.string(),
  z.looseObject({ content: z.string() }).transform((body) => body.content),
  z.looseObject({ html: z.string() }).transform((body) => body.html),
  z.looseObject({ markdown: z.string() }).transform((body) => body.markdown),
]);

/**
 * html/markdown answers: the body itself (`text/html`, `text/markdown`, as our emulator sends).
 * A JSON string or `{ content | html | markdown: string }` is accepted too, since the spec does
 * not show the response's media type.
 */
export function readLinkedContent(answer: Answer, redact: (text: string) => string): AttemptOutcome<string, AttemptFailure> {
  const contentType = headerValue(answer.headers, 'content-type') ?? '';
  if (!/\bjson\b/i.test(contentType)) {
    if (answer.text === '') {
      return { ok: false, failure: { kind: 'unreadable', status: answer.status, detail: `the answer (status ${answer.status}) is empty` } };
    }
    return { ok: true, value: answer.text };
  }
  const json = parseJsonAnswer(answer, redact);
  if (!json.ok) return json;
  return validated(answer, linkedContentJsonSchema.safeParse(json.value), (content) => content);
}
