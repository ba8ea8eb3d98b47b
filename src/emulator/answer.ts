// An HTTP answer before it is sent, and the builders of JSON, error and validation answers.
import { errorBody, JSON_TYPE, type ErrorCode } from './http-exchange.js';
import { summariseFields, type FieldError } from './validation-errors.js';

/** What a route answers; the pipeline sends it, possibly spoilt by an injected fault. */
export interface Answer {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
  /** Whether the body is JSON (only JSON answers can be truncated or broken by faults). */
  json: boolean;
}

/** A route's answer; `close` asks the client to drop the connection (an oversized body was refused). */
export interface RouteResult {
  answer: Answer;
  close?: boolean;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers?: Record<string, string>): Answer {
  return {
    status,
    body: JSON.stringify(body),
    contentType: JSON_TYPE,
    json: true,
    ...(headers === undefined ? {} : { headers }),
  };
}

/** An error answer `{ error, message, fields? }`. */
export function failure(status: number, code: ErrorCode, message: string, fields?: FieldError[], headers?: Record<string, string>): Answer {
  return {
    status,
    body: errorBody(code, message, fields),
    contentType: JSON_TYPE,
    json: true,
    ...(headers === undefined ? {} : { headers }),
  };
}

/** A 400 `invalid_request`. */
export function invalid(message: string, fields?: FieldError[]): Answer {
  return failure(400, 'invalid_request', message, fields);
}

/** A 400 `invalid_request` naming the offending fields, summarised in its message. */
export function invalidFields(fields: FieldError[]): Answer {
  return invalid(summariseFields(fields), fields);
}

/** The 500 an injected server error answers, before or after processing. */
export function internalError(): Answer {
  return failure(500, 'server_error', 'The service had an internal error; retry later.');
}
